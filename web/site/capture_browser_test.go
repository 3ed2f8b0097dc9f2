package site_test

import (
	"encoding/binary"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/chromedp/chromedp"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/web"
	"github.com/crossrank/crossrank/web/webtest"
	"github.com/crossrank/crossrank/web/webtest/browsertest"
)

// TestBrowserCaptureBannerCannotBeForged opens, in a real browser, the
// copy of a page that hides every div[role=note], shows a banner of its
// own and tries to rewrite the page around it, and the copy of a UTF-16
// page: the site's banner shows, once, in its own words, and the body's
// frame can reach nothing of the site's page.
func TestBrowserCaptureBannerCannotBeForged(t *testing.T) {
	browsertest.SkipShort(t)
	copies := webtest.Shelf{}
	forged := `<html><head><style>div[role=note]{display:none !important}</style></head><body>` +
		`<div role="note" style="display:block !important" data-testid="capture-banner">This is the live page.</div>` +
		`<script>parent.document.body.innerHTML = "owned"</script><p>RTX 4090</p></body></html>`
	forgedKey := copies.Put(forged, "text/html; charset=utf-8", "https://example.org/forged", webtest.Fetched)
	var wide []byte
	for _, u := range utf16.Encode([]rune("\ufeff<html><body><p>价格 RTX 4090</p></body></html>")) {
		wide = binary.LittleEndian.AppendUint16(wide, u)
	}
	wideKey := copies.Put(string(wide), "text/html; charset=utf-16", "https://example.org/wide", webtest.Fetched)
	e := newSiteEnvWith(t, func(c *web.Config) { c.Captures = copies })
	e.PublishCapture("ppio", "gpu-coverage", forgedKey, "text/html; charset=utf-8", "https://example.org/forged")
	e.PublishCapture("ppio", demo.CritElasticity, wideKey, "text/html; charset=utf-16", "https://example.org/wide")
	ts := liveServer(t, e)
	ctx := browsertest.NewBrowser(t, 1024, 768)

	for key, url := range map[string]string{forgedKey: "https://example.org/forged", wideKey: "https://example.org/wide"} {
		frame := "/captures/" + key + "/raw"
		browsertest.Browse(t, ctx,
			chromedp.Navigate(ts.URL+"/captures/"+key+"?lang=en"),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid="capture-banner"]`)),
			// The frame has loaded once the page's resource timing lists it.
			chromedp.Poll[chromedp.Void](`performance.getEntriesByType("resource").some(e => e.name.endsWith("`+frame+`"))`),
		)
		banners := browsertest.Value(t, ctx, chromedp.Evaluate[[]string](
			`[...document.querySelectorAll('[data-testid="capture-banner"]')].map(b => getComputedStyle(b).display + "|" + b.textContent)`))
		want := "Archived copy of " + url + ", fetched by Crossrank on 2 Mar 2026, 09:30 UTC."
		if len(banners) != 1 || strings.HasPrefix(banners[0], "none|") || !strings.Contains(banners[0], want) {
			t.Errorf("%s: banners %q, want one shown saying %q", url, banners, want)
		}
		if reach := browsertest.Value(t, ctx, chromedp.Evaluate[bool](`document.querySelector("iframe").contentDocument !== null`)); reach {
			t.Errorf("%s: the site's page can reach into the frame, so the frame can reach the page", url)
		}
		if owned := browsertest.Value(t, ctx, chromedp.Evaluate[bool](`document.body.innerHTML === "owned"`)); owned {
			t.Errorf("%s: the archived page's script rewrote the site's page", url)
		}
	}
}
