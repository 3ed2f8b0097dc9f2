package site_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web"
	"github.com/crossrank/crossrank/web/site"
	"github.com/crossrank/crossrank/web/webtest"
)

// TestCaptureOfDraftStaysOnDesk: a capture cited only by a draft is no
// public page, frame or download (404 as if there were none); a signed-in
// desk user reads all three, and nothing keeps them in a shared cache.
func TestCaptureOfDraftStaysOnDesk(t *testing.T) {
	t.Parallel()
	copies := newShelf(false)
	e := webtest.NewDemo(t, func(c *web.Config) { c.Captures = copies })
	page := "<p>draft source</p>"
	sha := copies.put(page)
	editor := domain.Actor{Name: "editor", Roles: []string{domain.RoleEditor}}
	before, err := e.Cmd.Proposal(e.Ctx, webtest.DemoDraft)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Cmd.AddEvidence(e.Ctx, editor, domain.AddEvidence{CommandID: "draft-capture-ev", Proposal: webtest.DemoDraft,
		Claim: events.Text{En: "Draft"}, SourceURL: "https://example.org/draft", Excerpt: "draft source", ObservedOn: "2026-03-01"}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Cmd.RecordCapture(e.Ctx, domain.Worker(), domain.RecordCapture{CommandID: "draft-capture", Proposal: webtest.DemoDraft,
		Evidence: fmt.Sprintf("e%d", before.EvidenceSeq+1), At: time.Now(), FinalURL: "https://example.org/draft", Status: 200,
		ContentType: "text/html; charset=utf-8", Size: int64(len(page)), SHA256: sha, QuoteFound: true, QuoteChecked: true}); err != nil {
		t.Fatal(err)
	}
	e.CaughtUp()

	paths := []string{"/captures/" + sha, "/captures/" + sha + "/raw", "/captures/" + sha + "/download", "/captures/" + sha + ".warc"}
	anonymous := e.Client("")
	for _, p := range paths {
		if res, body := anonymous.Do(http.MethodGet, p, nil, nil); res.StatusCode != http.StatusNotFound || strings.Contains(body, "draft source") {
			t.Errorf("signed out GET %s: %d, want 404", p, res.StatusCode)
		}
	}
	reviewer := e.Client("reviewer1")
	for _, p := range paths {
		res, body := reviewer.Do(http.MethodGet, p, nil, nil)
		if res.StatusCode != http.StatusOK || !strings.Contains(res.Header.Get("Cache-Control"), "no-store") {
			t.Errorf("signed in GET %s: %d %q, want 200 kept by no cache", p, res.StatusCode, res.Header.Get("Cache-Control"))
		}
		if strings.HasSuffix(p, "/raw") && body != page {
			t.Errorf("signed in GET %s: %q", p, body)
		}
	}
}

// TestCaptureStreamsBounded: one client address holds at most
// CaptureStreamsPerClient bodies being sent (one more is refused with 429
// and Retry-After), and while DefaultCaptureStreams are being sent to all
// clients, one more is refused with 503 and Retry-After; the site's own
// page about the copy still answers; once they end, bodies are sent again.
// Twenty slow readers from one address held all 16 before (issue 41 item 4).
func TestCaptureStreamsBounded(t *testing.T) {
	t.Parallel()
	copies := newShelf(true)
	const body = "<p>RTX 4090</p>"
	key := copies.put(body)
	e := webtest.NewSiteWith(t, func(c *web.Config) { c.Captures = copies })
	e.PublishCapture("ppio", "gpu-coverage", key, "text/html", "https://example.com/report")

	get := func(target, addr string) *httptest.ResponseRecorder {
		w := httptest.NewRecorder()
		r := httptest.NewRequest(http.MethodGet, target, nil)
		r.RemoteAddr = addr + ":1234"
		e.Srv.Handler().ServeHTTP(w, r)
		return w
	}
	raw := "/captures/" + key + "/raw"
	var wg sync.WaitGroup
	hold := func(addr string) {
		wg.Go(func() {
			if w := get(raw, addr); w.Code != http.StatusOK {
				t.Errorf("a held body for %s: %d", addr, w.Code)
			}
		})
		<-copies.reading
	}
	for range site.CaptureStreamsPerClient {
		hold("192.0.2.1")
	}
	if w := get(raw, "192.0.2.1"); w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") != "1" {
		t.Errorf("one body too many for one client: %d, Retry-After %q; want 429 and 1", w.Code, w.Header().Get("Retry-After"))
	}
	for i := site.CaptureStreamsPerClient; i < site.DefaultCaptureStreams; i++ {
		hold(fmt.Sprintf("198.51.100.%d", i))
	}
	if w := get(raw, "203.0.113.9"); w.Code != http.StatusServiceUnavailable || w.Header().Get("Retry-After") != "1" {
		t.Errorf("one body too many in all: %d, Retry-After %q; want 503 and 1", w.Code, w.Header().Get("Retry-After"))
	}
	if w := get("/captures/"+key, "203.0.113.9"); w.Code != http.StatusOK {
		t.Errorf("the page about the copy while bodies are held: %d", w.Code)
	}
	close(copies.release)
	wg.Wait()
	if w := get(raw, "192.0.2.1"); w.Code != http.StatusOK || w.Body.String() != body {
		t.Errorf("after the others ended: %d %q", w.Code, w.Body.String())
	}
}
