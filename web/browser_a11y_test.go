package web

import (
	"context"
	_ "embed"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// axeSource is axe-core 4.14.1 (MPL-2.0), vendored under testdata/axe.
//
//go:embed testdata/axe/axe.min.js
var axeSource string

// axeViolation is the part of an axe-core result a failure message needs.
type axeViolation struct {
	ID     string `json:"id"`
	Impact string `json:"impact"`
	Help   string `json:"help"`
	Nodes  []struct {
		Target []any  `json:"target"`
		HTML   string `json:"html"`
	} `json:"nodes"`
}

// axeScript loads axe into the page once and resolves to its violations,
// at most five elements each.
var axeScript = `(async () => {
	if (!window.axe) { ` + axeSource + ` }
	const r = await axe.run(document, {resultTypes: ['violations']});
	return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
		nodes: v.nodes.slice(0, 5).map(n => ({target: n.target, html: n.html.slice(0, 200)}))}));
})()`

// checkAccessibility runs axe-core's default rules (WCAG 2.x A and AA and
// axe's best practices) on the page the tab shows and fails the test for
// every violation, naming the rule, the elements and what to fix. The
// script is evaluated through the DevTools protocol, so the page's CSP
// does not stand in its way.
func checkAccessibility(t *testing.T, ctx context.Context, page string) {
	t.Helper()
	vs := browserValue(t, ctx, chromedp.Evaluate[[]axeViolation](axeScript, chromedp.EvalAwaitPromise))
	if len(vs) > 0 {
		t.Errorf("axe-core finds %d accessibility violations on %s:%s", len(vs), page, formatViolations(vs))
	}
}

// formatViolations lists violations one per line for a failure message.
func formatViolations(vs []axeViolation) string {
	var b strings.Builder
	for _, v := range vs {
		fmt.Fprintf(&b, "\n  %s (%s): %s", v.ID, v.Impact, v.Help)
		for _, n := range v.Nodes {
			fmt.Fprintf(&b, "\n    %v %s", n.Target, n.HTML)
		}
	}
	return b.String()
}

// TestBrowserAxeFindsViolations shows the check can fail: a page with an
// image without alt text and an unlabelled input has violations.
func TestBrowserAxeFindsViolations(t *testing.T) {
	ctx := newBrowser(t, 800, 600)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, `<!doctype html><html><head><title>t</title></head><body><main><img src="/x.png"><input type="text"></main></body></html>`)
	}))
	defer ts.Close()
	browse(t, ctx, chromedp.Navigate(ts.URL), chromedp.WaitReady(chromedp.CSS(`main`)))
	vs := browserValue(t, ctx, chromedp.Evaluate[[]axeViolation](axeScript, chromedp.EvalAwaitPromise))
	ids := map[string]bool{}
	for _, v := range vs {
		ids[v.ID] = true
	}
	if !ids["image-alt"] || !ids["label"] || !ids["html-has-lang"] {
		t.Errorf("axe-core found %v on a page with an unlabelled image and input and no lang; want image-alt, label, html-has-lang", formatViolations(vs))
	}
}
