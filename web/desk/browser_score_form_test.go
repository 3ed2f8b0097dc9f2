package desk_test

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/web/webtest/browsertest"
)

// TestBrowserScoreFormKept: an editor types a score, then adds the
// evidence it needs with the evidence form, and finds the score form as
// they left it (criterion, score, rationale, citation) beside the new
// evidence, with the rank-impact preview following it; once the score is
// proposed, the next page's score form is empty again.
func TestBrowserScoreFormKept(t *testing.T) {
	browsertest.SkipShort(t)
	e := newDemoEnv(t)
	ts := httptest.NewServer(e.Srv.Handler())
	defer ts.Close()
	defer e.Srv.CloseStreams()
	const page = "/desk/proposals/demo-matpool-2"
	ed := e.signIn(ts.URL, "editor")
	ed.open(page+"?lang=en", `[data-testid="score-form"]`)
	const rationale = "The pricing page lists H100 and A800 cards."
	ed.do(
		chromedp.SetValue(chromedp.CSS(`#score-criterion`), demo.CritGPUs),
		chromedp.SendKeys(chromedp.CSS(`#score-to`), "6"),
		chromedp.SendKeys(chromedp.CSS(`#score-rationale-en`), rationale),
		chromedp.Click(chromedp.CSS(`[data-testid="score-cite-e1"]`)),
	)
	// The evidence form's required fields, its source URL and its English
	// claim (either language may be empty, so neither is required alone).
	browsertest.Value(t, ed.ctx, chromedp.Evaluate[bool](`(() => {
		for (const el of document.querySelectorAll('[data-testid="evidence-form"] input[required], [data-testid="evidence-form"] textarea[required], [data-testid="evidence-form"] input[type="url"], [data-testid="evidence-form"] [name="claim_en"]')) {
			if (!el.value) el.value = el.type === "url" ? "https://example.com/matpool/gpus" : "Matpool lists H100 and A800 cards.";
		}
		return true;
	})()`))
	ed.do(
		chromedp.Click(chromedp.CSS(`[data-testid="evidence-submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="evidence-e2"]`)),
	)
	got := browsertest.Value(t, ed.ctx, chromedp.Evaluate[string](`(() => {
		const f = document.querySelector('[data-testid="score-form"]');
		const cited = [...f.querySelectorAll('input[name="evidence"]:checked')].map(el => el.value).join(",");
		return [f.elements.criterion.value, f.elements.to.value, f.elements.rationale_en.value, cited].join("|");
	})()`))
	if want := strings.Join([]string{demo.CritGPUs, "6", rationale, "e1"}, "|"); got != want {
		t.Errorf("after adding evidence the score form holds %q, want %q", got, want)
	}
	ed.do(chromedp.WaitVisible(chromedp.CSS(`[data-testid="impact-what"]`)))
	if what := ed.text("impact-what"); !strings.Contains(what, "GPU model coverage") || !strings.Contains(what, "6") {
		t.Errorf("the preview says %q", what)
	}
	ed.do(
		chromedp.Click(chromedp.CSS(`[data-testid="score-cite-e2"]`)),
		chromedp.Click(chromedp.CSS(`[data-testid="score-submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="diff-score-`+demo.CritGPUs+`"][data-after="6"]`)),
	)
	if to := browsertest.Value(t, ed.ctx, chromedp.Evaluate[string](`document.querySelector("#score-to").value`)); to != "" {
		t.Errorf("after proposing the score, the form holds %q", to)
	}
}
