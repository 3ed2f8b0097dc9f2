package desk_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/crossrank/crossrank/cmd/crossrank/scheduler"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/web/webtest"
	"github.com/crossrank/crossrank/web/webtest/browsertest"
)

// startScheduler runs the scheduled editions' worker over e's store and
// read models until the test ends, as `crossrank serve` does.
func (e *demoEnv) startScheduler() {
	e.T.Helper()
	nc, err := e.JS.Server.Connect("scheduler")
	if err != nil {
		e.T.Fatal(err)
	}
	s, err := scheduler.New(nc, scheduler.Config{Commands: e.Cmd, Reads: e.Read})
	if err != nil {
		e.T.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { _ = s.Run(ctx) })
	e.T.Cleanup(func() { stop(); wg.Wait(); nc.Close() })
}

// waitText polls the text of the element with testid in b's page, without
// reloading it, until ok accepts it; it fails the test after within.
func (b *userBrowser) waitText(testid string, within time.Duration, ok func(string) bool) string {
	b.t.Helper()
	deadline := time.Now().Add(within)
	for {
		got := b.text(testid)
		if ok(got) {
			return got
		}
		if time.Now().After(deadline) {
			b.t.Fatalf("%s: %s is %q after %v", b.user, testid, got, within)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestBrowserWorkflow runs the editorial workflow in Chromium: the editor
// requests reviewer1, whose header count rises live on the open dashboard
// and whose inbox lists the request; reviewer1 comments on the evidence,
// the editor replies and resolves; two reviewers approve; the publisher
// schedules the edition a few seconds ahead from the publish page while a
// public page is open; the scheduler fires it, and the open public page
// announces the new edition over SSE.
func TestBrowserWorkflow(t *testing.T) {
	browsertest.SkipShort(t)
	e := newDemoEnv(t)
	e.startScheduler()
	ts := httptest.NewServer(e.Srv.Handler())
	t.Cleanup(ts.Close)
	t.Cleanup(e.Srv.CloseStreams) // runs first: the open pages' streams would keep Close waiting
	id := e.Reviewable(e.Client("editor"), "ppio", demo.CritGraphics, 9)

	// reviewer1's dashboard is open; it is never reloaded while the count
	// rises.
	r1 := e.signIn(ts.URL, "reviewer1")
	before, _ := strconv.Atoi(r1.text("inbox-unread"))
	r1.do(chromedp.Evaluate[chromedp.Void](`window.crossrankNotReloaded = true`))

	ed := e.signIn(ts.URL, "editor")
	ed.open("/desk/proposals/"+id, `[data-testid="reviewers-form"]`)
	ed.do(
		chromedp.Evaluate[chromedp.Void](`document.querySelectorAll('[data-testid="reviewers-form"] input[name="reviewers"]').forEach(function (i) { i.checked = i.value === "reviewer1"; })`),
		chromedp.Click(chromedp.CSS(`[data-testid="reviewers-submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="attention-set"]`)),
	)
	if got := ed.text("attention-set"); got != "Waiting for: reviewer1" {
		t.Errorf("attention set %q", got)
	}
	want := strconv.Itoa(before + 1)
	r1.waitText("inbox-unread", 10*time.Second, func(s string) bool { return s == want })
	if !browsertest.Value(t, r1.ctx, chromedp.Evaluate[bool](`window.crossrankNotReloaded === true`)) {
		t.Error("the dashboard was reloaded to update the count")
	}
	r1.do(chromedp.Click(chromedp.CSS(`[data-testid="inbox-link"]`)), chromedp.WaitVisible(chromedp.CSS(`[data-testid="inbox"]`)))
	if got := browsertest.Value(t, r1.ctx, chromedp.Text(chromedp.CSS(`[data-testid="inbox-item"][data-kind="review_requested"]`))); !strings.Contains(got, "editor asked you to review proposal Update ppio") { // its title, not its id
		t.Errorf("inbox item %q", got)
	}
	browsertest.CheckAccessibility(t, r1.ctx, "the inbox")

	// reviewer1 comments on the evidence; the editor replies and resolves.
	r1.open("/desk/proposals/"+id, `[data-testid="comment-form"]`)
	r1.do(
		chromedp.SetValue(chromedp.CSS(`#comment-on`), "evidence:e1"),
		chromedp.SendKeys(chromedp.CSS(`#comment-body`), "Which page of the report?"),
		chromedp.Click(chromedp.CSS(`[data-testid="comment-submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="comment-c1"]`)),
	)
	ed.open("/desk/proposals/"+id, `[data-testid="comment-c1"]`)
	ed.do(
		chromedp.Click(chromedp.CSS(`[data-testid="reply-open-c1"]`)),
		chromedp.SendKeys(chromedp.CSS(`[data-testid="reply-body-c1"]`), "Page 4."),
		chromedp.Click(chromedp.CSS(`[data-testid="reply-submit-c1"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="comment-c2"]`)),
		chromedp.Click(chromedp.CSS(`[data-testid="resolve-c1"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="comment-c1"][data-resolved="true"]`)),
	)

	// Two approvals: reviewer1 in the browser, reviewer2 by form post.
	r1.open("/desk/proposals/"+id, `[data-testid="approve-form"]`)
	r1.do(
		chromedp.Click(chromedp.CSS(`[data-testid="verify-e1"]`)),
		chromedp.Click(chromedp.CSS(`[data-testid="approve"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="vote-reviewer1"]`)),
	)
	e.MustPost(e.Client("reviewer2"), id, "votes", url.Values{"verdict": {"approve"}, "revision": {"1"}, "verified_evidence": {"e1"}})
	// A reviewer's conflict form on the entry page passes the accessibility check too.
	r1.open("/desk/entries/"+webtest.DemoRanking+"/ppio", `[data-testid="conflict-form"]`)

	// The public page is open while the publisher schedules the edition.
	edition := e.editionNumber()
	r1.open("/r/"+webtest.DemoRanking, `[data-testid="public"]`)
	pub := e.signIn(ts.URL, "publisher")
	pub.open("/desk/publish?ranking="+webtest.DemoRanking+"&p="+id, `[data-testid="schedule-form-`+webtest.DemoRanking+`"]`)
	if got := browsertest.Value(t, pub.ctx, chromedp.Value(chromedp.CSS(`[data-testid="schedule-zone"]`))); got != "Asia/Shanghai" {
		t.Errorf("default zone %q", got)
	}
	sh, _ := time.LoadLocation("Asia/Shanghai")
	at := time.Now().Add(5 * time.Second).In(sh)
	pub.do(
		chromedp.SetValue(chromedp.CSS(`[data-testid="schedule-at"]`), at.Format("2006-01-02T15:04:05")),
		chromedp.Click(chromedp.CSS(`[data-testid="schedule-submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="queue-upcoming"] [data-testid="schedule-cancel"]`)),
	)
	if got := pub.text("queue-upcoming-items"); !strings.Contains(got, "(UTC+08:00)") || !strings.Contains(got, id) {
		t.Errorf("upcoming editions %q", got)
	}
	browsertest.CheckAccessibility(t, pub.ctx, "the dashboard with an upcoming edition")
	r1.do(chromedp.WaitVisible(chromedp.CSS(`[data-testid="live-notice"]`)))
	if got := e.editionNumber(); got != edition+1 {
		t.Errorf("edition %d after the schedule fired, want %d", got, edition+1)
	}
	if res, _ := e.Client("").Do(http.MethodGet, "/r/"+webtest.DemoRanking+"/editions/"+strconv.Itoa(edition+1), nil, nil); res.StatusCode != http.StatusOK {
		t.Errorf("the scheduled edition's page: %d", res.StatusCode)
	}
}

// editionNumber is the demo ranking's latest edition.
func (e *demoEnv) editionNumber() int {
	e.T.Helper()
	ed, err := e.Cmd.Edition(e.Ctx, webtest.DemoRanking)
	if err != nil {
		e.T.Fatal(err)
	}
	return ed.Number
}
