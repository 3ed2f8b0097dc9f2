package desk_test

import (
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/crossrank/crossrank/web/paths"
	"github.com/crossrank/crossrank/web/webtest/browsertest"
)

// deskGlancePage is a desk page TestBrowserDeskGlance opens, as the
// demo user whose work it shows.
type deskGlancePage struct{ name, path, ready string }

// deskGlancePages are the pages each demo user opens: the editor's draft
// (every form of the proposal page), the reviewer's dashboard, review
// queue and a proposal awaiting their vote, the publisher's dashboard,
// publish page and audit trail.
var deskGlancePages = map[string][]deskGlancePage{
	"editor": {
		{"proposal-draft", "/desk/proposals/demo-matpool-2", `[data-testid="score-form"]`},
	},
	"reviewer2": {
		{"dashboard-reviewer", paths.Desk, `[data-testid="dashboard"]`},
		{"review", paths.Review, `[data-testid="review"]`},
		{"proposal-review", "/desk/proposals/demo-huawei-cloud-2", `[data-testid="proposal"]`},
	},
	"publisher": {
		{"dashboard-publisher", paths.Desk, `[data-testid="dashboard"]`},
		{"publish", paths.Publish, `main`},
		{"audit", paths.Audit, `main`},
	},
}

// TestBrowserDeskGlance is TestBrowserGlance for the desk: each page of
// deskGlancePages on a desktop (1366×900) and a phone (390×844), in the
// light and the dark theme (chosen with the header's switch, which the
// next page remembers), in both languages. Nothing is wider than the
// screen, a table wider than a phone keeps its first column in view as
// it scrolls, <html lang> names the language, and axe finds no violation
// (contrast included). On the phone the header's navigation, wider than
// the screen, scrolls and fades at its edge to say so. Each user signs in
// once per window size. With CROSSRANK_SCREENSHOTS=1 each page is saved
// as testdata/screenshots/desk-glance-<page>-<lang>-<width>-<theme>.png.
func TestBrowserDeskGlance(t *testing.T) {
	browsertest.SkipShort(t)
	e := newDemoEnv(t)
	ts := httptest.NewServer(e.Srv.Handler())
	defer ts.Close()
	defer e.Srv.CloseStreams() // every desk page follows its inbox count
	for _, size := range [][2]int{{1366, 900}, {390, 844}} {
		for _, user := range []string{"editor", "reviewer2", "publisher"} {
			b := e.signInAt(ts.URL, user, size[0], size[1])
			for _, theme := range []string{"light", "dark"} {
				b.do(
					chromedp.WaitVisible(chromedp.CSS(`[data-testid="theme-switch"]`)),
					chromedp.Click(chromedp.CSS(`[data-theme-value="`+map[string]string{"light": "auto", "dark": "dark"}[theme]+`"]`)),
				)
				for _, lang := range []string{"en", "zh"} {
					for _, p := range deskGlancePages[user] {
						name := fmt.Sprintf("%s-%s-%d-%s", p.name, lang, size[0], theme)
						b.do(chromedp.Navigate(ts.URL+p.path+"?lang="+lang), chromedp.WaitVisible(chromedp.CSS(p.ready)))
						checkDeskGlance(t, b, name, lang, theme, size[0])
						browsertest.CheckAccessibility(t, b.ctx, name)
						browsertest.Screenshot(t, b.ctx, "desk-glance-"+name)
					}
				}
			}
			if size[0] < 500 {
				nav := browsertest.Value(t, b.ctx, chromedp.Evaluate[string](`(() => {
					const n = document.querySelector(".main-nav");
					return (n.scrollWidth > n.clientWidth ? "scrolls" : "fits") + " " + getComputedStyle(n).maskImage;
				})()`))
				if scrolls, mask, _ := strings.Cut(nav, " "); scrolls == "scrolls" && !strings.Contains(mask, "gradient") {
					t.Errorf("%s at %d px: the navigation scrolls sideways but does not fade at its edge (mask %q)", user, size[0], mask)
				}
			}
		}
	}
}

// checkDeskGlance checks what the page shows in the window: its theme and
// language, and nothing wider than the screen.
func checkDeskGlance(t *testing.T, b *userBrowser, name, lang, theme string, width int) {
	t.Helper()
	if got := browsertest.Value(t, b.ctx, chromedp.Evaluate[string](`document.documentElement.getAttribute("data-theme") || "light"`)); got != theme {
		t.Errorf("%s: theme %q", name, got)
	}
	if got := browsertest.Value(t, b.ctx, chromedp.Evaluate[string](`document.documentElement.lang`)); !strings.HasPrefix(got, lang) {
		t.Errorf("%s: <html lang=%q>", name, got)
	}
	if browsertest.Value(t, b.ctx, chromedp.Evaluate[bool](`document.documentElement.scrollWidth > document.documentElement.clientWidth`)) {
		// The failure names the innermost elements reaching past the edge.
		wide := browsertest.Value(t, b.ctx, chromedp.Evaluate[[]string](`(() => {
			const w = document.documentElement.clientWidth;
			const past = el => el.getBoundingClientRect().right > w + 1;
			const scrolled = el => { // inside a frame that scrolls it
				for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
					if (getComputedStyle(a).overflowX !== "visible" && getComputedStyle(el).position !== "absolute") return true;
				}
				return false;
			};
			const out = [...document.body.querySelectorAll("*")].filter(el => past(el) && !scrolled(el) && ![...el.children].some(past));
			return out.slice(0, 5).map(el => el.outerHTML.slice(0, 160));
		})()`))
		t.Errorf("%s is wider than the screen: %v", name, wide)
	}
	// A table that scrolls sideways in its frame keeps its first column
	// (what each row is about) in view: sticky, or the rows are stacked.
	if width < 500 {
		bad := browsertest.Value(t, b.ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("main table")].filter(tb => {
			const frame = tb.parentElement;
			if (tb.getBoundingClientRect().width <= frame.clientWidth + 1) return false;
			const first = tb.querySelector("tbody tr > :first-child");
			return !first || getComputedStyle(first).position !== "sticky";
		}).map(tb => tb.getAttribute("data-testid") || tb.className || "table")`))
		if len(bad) > 0 {
			t.Errorf("%s: tables %v scroll sideways with their first column out of view", name, bad)
		}
	}
}
