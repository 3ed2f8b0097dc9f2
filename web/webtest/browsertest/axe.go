package browsertest

import (
	"context"
	_ "embed"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"
)

// axeSource is axe-core 4.14.1 (MPL-2.0), vendored under testdata/axe.
//
//go:embed testdata/axe/axe.min.js
var axeSource string

// AxeViolation is the part of an axe-core result a failure message needs.
type AxeViolation struct {
	ID     string `json:"id"`
	Impact string `json:"impact"`
	Help   string `json:"help"`
	Nodes  []struct {
		Target []any  `json:"target"`
		HTML   string `json:"html"`
	} `json:"nodes"`
}

// AxeScript loads axe into the page once and resolves to its violations,
// at most five elements each.
var AxeScript = `(async () => {
	if (!window.axe) { ` + axeSource + ` }
	const r = await axe.run(document, {resultTypes: ['violations']});
	return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
		nodes: v.nodes.slice(0, 5).map(n => ({target: n.target, html: n.html.slice(0, 200)}))}));
})()`

// CheckAccessibility runs axe-core's default rules (WCAG 2.x A and AA and
// axe's best practices) on the page the tab shows and fails the test for
// every violation, naming the rule, the elements and what to fix. The
// script is evaluated through the DevTools protocol, so the page's CSP
// does not stand in its way.
func CheckAccessibility(t *testing.T, ctx context.Context, page string) {
	t.Helper()
	vs := Value(t, ctx, chromedp.Evaluate[[]AxeViolation](AxeScript, chromedp.EvalAwaitPromise))
	if len(vs) > 0 {
		t.Errorf("axe-core finds %d accessibility violations on %s:%s", len(vs), page, FormatViolations(vs))
	}
}

// checkedOnce are the pages CheckAccessibilityOnce has run axe on in this
// test binary.
var checkedOnce sync.Map

// CheckAccessibilityOnce is CheckAccessibility for a page every browser
// passes through the same way (the sign-in form, a role's dashboard on
// signing in): axe runs on it the first time a test of the package asks,
// not in each test again. An axe run costs Chromium about as much as
// loading the page, and every browser test signs in.
func CheckAccessibilityOnce(t *testing.T, ctx context.Context, page string) {
	t.Helper()
	if _, done := checkedOnce.LoadOrStore(page, true); done {
		return
	}
	CheckAccessibility(t, ctx, page)
}

// FormatViolations lists violations one per line for a failure message.
func FormatViolations(vs []AxeViolation) string {
	var b strings.Builder
	for _, v := range vs {
		fmt.Fprintf(&b, "\n  %s (%s): %s", v.ID, v.Impact, v.Help)
		for _, n := range v.Nodes {
			fmt.Fprintf(&b, "\n    %v %s", n.Target, n.HTML)
		}
	}
	return b.String()
}
