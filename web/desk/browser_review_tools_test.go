package desk_test

import (
	"net/http/httptest"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/crossrank/crossrank/web/webtest/browsertest"
)

// TestBrowserReviewTools: in Chromium the review queue shows its
// page-wide controls and their keys; "tick all" ticks every proposal of
// the page and every evidence item under it, and "x" on the proposal "j"
// moved to clears it with its evidence again.
func TestBrowserReviewTools(t *testing.T) {
	browsertest.SkipShort(t)
	e := newDemoEnv(t)
	ts := httptest.NewServer(e.Srv.Handler())
	defer ts.Close()
	defer e.Srv.CloseStreams()
	b := e.signIn(ts.URL, "reviewer1")
	b.open("/desk/review?status=any", `[data-testid="review-rows"]`)
	if got := b.text("review-shortcuts"); got == "" {
		t.Fatal("no keys shown")
	}
	eval := func(expr string) int {
		t.Helper()
		return browsertest.Value(t, b.ctx, chromedp.Evaluate[int](expr))
	}
	const all = `document.querySelectorAll('[data-testid="review-form"] input[type=checkbox]:not([data-review-tick-all])').length`
	const checked = `document.querySelectorAll('[data-testid="review-form"] input[type=checkbox]:checked:not([data-review-tick-all])').length`
	b.do(chromedp.Click(chromedp.CSS(`[data-testid="review-tick-all"]`)))
	boxes, ticked := eval(all), eval(checked)
	if boxes < 2 || ticked != boxes {
		t.Fatalf("tick all ticked %d of %d boxes", ticked, boxes)
	}
	eval(`document.activeElement.blur(), 0`)
	b.do(chromedp.KeyEvent("j"), chromedp.KeyEvent("x"))
	first := eval(`document.querySelectorAll('[data-testid="review-row"]')[0].querySelectorAll('input:checked').length`)
	if ticked = eval(checked); first != 0 || ticked == 0 || ticked >= boxes {
		t.Errorf("after j x: %d ticked in the first row, %d of %d in all", first, ticked, boxes)
	}
}
