package desk_test

import (
	"net/http/httptest"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/crossrank/crossrank/web/paths"
	"github.com/crossrank/crossrank/web/webtest/browsertest"
)

// TestBrowserDeskDark: the desk in the dark theme, chosen with the
// header's switch: the dashboard, the review queue, the publish page and
// the audit trail keep it from page to page and pass axe (contrast
// included). With CROSSRANK_SCREENSHOTS=1 each is saved as
// testdata/screenshots/dark-<page>.png.
func TestBrowserDeskDark(t *testing.T) {
	browsertest.SkipShort(t)
	e := newDemoEnv(t)
	ts := httptest.NewServer(e.Srv.Handler())
	defer ts.Close()
	defer e.Srv.CloseStreams()
	b := e.signIn(ts.URL, "publisher")
	b.do(chromedp.Click(chromedp.CSS(`[data-theme-value="dark"]`)))
	for name, path := range map[string]string{"dashboard": "/desk", "review": paths.Review, "publish": paths.Publish, "audit": paths.Audit} {
		b.open(path+"?lang=en", "main")
		if theme := browsertest.Value(t, b.ctx, chromedp.Evaluate[string](`document.documentElement.getAttribute("data-theme") || ""`)); theme != "dark" {
			t.Errorf("%s: theme %q after choosing dark", name, theme)
		}
		browsertest.Screenshot(t, b.ctx, "dark-"+name)
	}
}
