package browsertest_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/crossrank/crossrank/web/webtest/browsertest"
)

// TestBrowserAxeFindsViolations shows the check can fail: a page with an
// image without alt text and an unlabelled input has violations.
func TestBrowserAxeFindsViolations(t *testing.T) {
	browsertest.SkipShort(t)
	ctx := browsertest.NewBrowser(t, 800, 600)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, `<!doctype html><html><head><title>t</title></head><body><main><img src="/x.png"><input type="text"></main></body></html>`)
	}))
	defer ts.Close()
	browsertest.Browse(t, ctx, chromedp.Navigate(ts.URL), chromedp.WaitReady(chromedp.CSS(`main`)))
	vs := browsertest.Value(t, ctx, chromedp.Evaluate[[]browsertest.AxeViolation](browsertest.AxeScript, chromedp.EvalAwaitPromise))
	ids := map[string]bool{}
	for _, v := range vs {
		ids[v.ID] = true
	}
	if !ids["image-alt"] || !ids["label"] || !ids["html-has-lang"] {
		t.Errorf("axe-core found %v on a page with an unlabelled image and input and no lang; want image-alt, label, html-has-lang", browsertest.FormatViolations(vs))
	}
}
