package desk_test

import (
	"bufio"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/webtest"
	"github.com/crossrank/crossrank/web/webtest/browsertest"
)

// TestBrowserCaptureLive: the editor's proposal page says "capturing…"
// for a new source; when the worker's result is projected, the page shows
// it without a reload (its script follows the desk's capture stream), and
// stops following once nothing is pending. Without script the same page
// shows the result on reload (TestDeskEvidenceCapture).
func TestBrowserCaptureLive(t *testing.T) {
	browsertest.SkipShort(t)
	e := newDemoEnv(t)
	ts := httptest.NewServer(e.Srv.Handler())
	defer ts.Close()
	defer e.Srv.CloseStreams() // before Close, which waits for every request
	editor := domain.Actor{Name: "editor", Roles: []string{domain.RoleEditor}}
	before, err := e.Cmd.Proposal(e.Ctx, webtest.DemoDraft)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Cmd.AddEvidence(e.Ctx, editor, domain.AddEvidence{CommandID: "live-ev", Proposal: webtest.DemoDraft,
		Claim: events.Text{En: "Live claim"}, SourceURL: "https://example.org/live", Excerpt: "RTX 4090", ObservedOn: "2026-03-01"}); err != nil {
		t.Fatal(err)
	}
	e.CaughtUp()
	id := nextEvidence(before.EvidenceSeq + 1)

	b := e.signIn(ts.URL, "editor")
	b.open("/desk/proposals/"+webtest.DemoDraft, `[data-capture-live]`)
	if got := b.text("capture-pending"); got != "capturing…" {
		t.Fatalf("pending text %q", got)
	}
	// Let the script connect, then record the result.
	b.do(chromedp.WaitReady(chromedp.CSS(`#evidence-` + id)))
	e.recordCapture(domain.RecordCapture{Proposal: webtest.DemoDraft, Evidence: id, FinalURL: "https://example.org/live",
		Status: 200, ContentType: "text/html", Size: 15, SHA256: strings.Repeat("c", 64), QuoteFound: true, QuoteChecked: true})
	b.do(chromedp.WaitVisible(chromedp.CSS(`#evidence-` + id + ` [data-testid="quote-found"]`)))
	if live := browsertest.Value(t, b.ctx, chromedp.Evaluate[bool](`document.querySelector("[data-capture-live]") !== null`)); live {
		t.Error("the page still follows the stream with nothing pending")
	}
}

// TestDeskCaptureStream: the stream answers signed-in users only, sends
// "capture" at once when the page's count is behind, and again when a
// result is projected; a page that is up to date hears nothing until then.
func TestDeskCaptureStream(t *testing.T) {
	e := newDemoEnv(t)
	ts := httptest.NewServer(e.Srv.Handler())
	defer ts.Close()
	defer e.Srv.CloseStreams()
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	target := ts.URL + "/desk/proposals/" + webtest.DemoDraft + "/captures?settled="
	res, err := noRedirect.Get(target + "0")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode == http.StatusOK {
		t.Fatalf("signed out: %d", res.StatusCode)
	}

	editor := domain.Actor{Name: "editor", Roles: []string{domain.RoleEditor}}
	before, err := e.Cmd.Proposal(e.Ctx, webtest.DemoDraft)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Cmd.AddEvidence(e.Ctx, editor, domain.AddEvidence{CommandID: "stream-ev", Proposal: webtest.DemoDraft,
		Claim: events.Text{En: "Streamed"}, SourceURL: "https://example.org/s", Excerpt: "x", ObservedOn: "2026-03-01"}); err != nil {
		t.Fatal(err)
	}
	e.CaughtUp()
	settled, err := e.Read.CapturesSettled(e.Ctx, webtest.DemoDraft)
	if err != nil {
		t.Fatal(err)
	}
	c := e.Client("reviewer1")
	open := func(known int) (*bufio.Reader, func()) {
		req, _ := http.NewRequestWithContext(e.Ctx, http.MethodGet, target+strconv.Itoa(known), nil)
		for _, ck := range c.Cookies {
			req.AddCookie(&http.Cookie{Name: ck.Name, Value: ck.Value})
		}
		res, err := noRedirect.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "text/event-stream; charset=utf-8" {
			t.Fatalf("stream: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
		}
		return bufio.NewReader(res.Body), func() { res.Body.Close() }
	}
	// next reads the stream's next event name and data, skipping the rest
	// ("ended" and the error when the stream ends).
	next := func(r *bufio.Reader) (string, string) {
		var name, data string
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return "ended", err.Error()
			}
			line = strings.TrimRight(line, "\n")
			switch {
			case strings.HasPrefix(line, "event: "):
				name = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: "):
				data = strings.TrimPrefix(line, "data: ")
			case line == "" && name != "":
				return name, data
			}
		}
	}
	behind, closeBehind := open(settled - 1)
	if name, data := next(behind); name != "capture" || data != strconv.Itoa(settled) {
		t.Errorf("a page behind hears %q %q, want capture %d", name, data, settled)
	}
	closeBehind()

	current, closeCurrent := open(settled)
	defer closeCurrent()
	got := make(chan string, 1)
	go func() {
		name, data := next(current)
		got <- name + " " + data
	}()
	select {
	case ev := <-got:
		t.Fatalf("an up-to-date page heard %q before any result", ev)
	case <-time.After(300 * time.Millisecond):
	}
	e.recordCapture(domain.RecordCapture{Proposal: webtest.DemoDraft, Evidence: nextEvidence(before.EvidenceSeq + 1),
		Failure: domain.CaptureTimeout})
	select {
	case ev := <-got:
		if want := "capture " + strconv.Itoa(settled+1); ev != want {
			t.Errorf("heard %q, want %q", ev, want)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no capture event after the result was projected")
	}
}
