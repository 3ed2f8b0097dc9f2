package site_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/crossrank/crossrank/web/webtest/browsertest"
)

// TestBrowserGlance opens the ranking (sorted by a criterion too), an
// entry, why it moved, an edition, a comparison and the methodology on a
// desktop (1366×900) and a phone (390×844), in the light and the dark
// theme (chosen with the header's switch, which the next page remembers),
// in both languages: nothing is wider than the screen, <html lang> names
// the language, the phone shows #1 on its first screen, the
// charts are drawn, a focused link shows a solid ring, and axe finds no
// violation. With CROSSRANK_SCREENSHOTS=1 it saves each page as
// testdata/screenshots/glance-<page>-<lang>-<width>-<theme>.png.
func TestBrowserGlance(t *testing.T) {
	browsertest.SkipShort(t)
	e := newSiteEnv(t)
	e.Publish("demo-qingjiao-2")
	ts := liveServer(t, e)
	pages := []struct{ name, path, ready string }{
		{"ranking", "/r/gpu-cloud", `[data-testid="bump-chart"]`},
		{"ranking-sorted", "/r/gpu-cloud?sort=-total", `[data-testid="ranking-row"]`},
		{"entry", "/r/gpu-cloud/e/qingjiao", `[data-testid="history-chart"]`},
		{"changes", "/r/gpu-cloud/e/qingjiao/changes", `[data-testid="why-chart"]`},
		{"edition", "/r/gpu-cloud/editions/2", `main`},
		{"compare", "/r/gpu-cloud/compare?a=zhixingyun&b=qingcloud&c=ppio", `[data-testid="compare-chart"]`},
		{"methodology", "/r/gpu-cloud/methodology", `[data-testid="criteria"]`},
	}
	for _, size := range [][2]int{{1366, 900}, {390, 844}} {
		ctx := browsertest.NewBrowser(t, size[0], size[1])
		for _, theme := range []string{"light", "dark"} {
			// The switch sets the theme; every page after keeps it.
			browsertest.Browse(t, ctx,
				chromedp.Navigate(ts.URL+"/r/gpu-cloud?lang=en"),
				chromedp.WaitVisible(chromedp.CSS(`[data-testid="theme-switch"]`)),
				chromedp.Click(chromedp.CSS(`[data-theme-value="`+map[string]string{"light": "auto", "dark": "dark"}[theme]+`"]`)),
			)
			for _, lang := range []string{"en", "zh"} {
				for _, p := range pages {
					sep := "?"
					if strings.Contains(p.path, "?") {
						sep = "&"
					}
					name := fmt.Sprintf("%s-%s-%d-%s", p.name, lang, size[0], theme)
					browsertest.Browse(t, ctx,
						chromedp.Navigate(ts.URL+p.path+sep+"lang="+lang),
						chromedp.WaitVisible(chromedp.CSS(p.ready)),
					)
					got := browsertest.Value(t, ctx, chromedp.Evaluate[string](`document.documentElement.getAttribute("data-theme") || "light"`))
					if got != theme {
						t.Errorf("%s: theme %q", name, got)
					}
					if got := browsertest.Value(t, ctx, chromedp.Evaluate[string](`document.documentElement.lang`)); !strings.HasPrefix(got, lang) {
						t.Errorf("%s: <html lang=%q>", name, got)
					}
					if browsertest.Value(t, ctx, chromedp.Evaluate[bool](`document.documentElement.scrollWidth > document.documentElement.clientWidth`)) {
						t.Errorf("%s is wider than the screen", name)
					}
					if p.name == "ranking" && size[0] < 500 {
						bottom := browsertest.Value(t, ctx, chromedp.Evaluate[float64](
							`document.querySelector('[data-testid="ranking-row"]').getBoundingClientRect().bottom`))
						t.Logf("%s: #1 ends %.0f px down", name, bottom)
						if bottom > float64(size[1]) {
							t.Errorf("%s: #1 ends %.0f px down, below the first screen (%d)", name, bottom, size[1])
						}
					}
					browsertest.CheckAccessibility(t, ctx, name)
					browsertest.Screenshot(t, ctx, "glance-"+name)
				}
			}
		}
		// Focus is a solid ring of 3 px on a link, a sort header and a button.
		for _, sel := range []string{`[data-testid="entry-link"]`, `[data-testid="sort-link"]`, `[data-testid="name-apply"]`} {
			browsertest.Browse(t, ctx, chromedp.Navigate(ts.URL+"/r/gpu-cloud?lang=en"), chromedp.WaitVisible(chromedp.CSS(sel)))
			ring := browsertest.Value(t, ctx, chromedp.Evaluate[string](`(() => {
				const el = document.querySelector('`+sel+`');
				el.focus({focusVisible: true});
				const s = getComputedStyle(el);
				return s.outlineStyle + " " + s.outlineWidth;
			})()`))
			if ring != "solid 3px" {
				t.Errorf("%d px: focus on %s is %q, want a solid 3px ring", size[0], sel, ring)
			}
		}
	}
}
