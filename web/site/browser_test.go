package site_test

import (
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/crossrank/crossrank/web/site"
	"github.com/crossrank/crossrank/web/webtest"
	"github.com/crossrank/crossrank/web/webtest/browsertest"
)

// TestBrowserLiveUpdate: a reader has the ranking open; a publisher
// publishes an edition; the reader's page shows the new ranking, with a
// notice, without a reload.
func TestBrowserLiveUpdate(t *testing.T) {
	browsertest.SkipShort(t)
	e := newSiteEnv(t)
	ts := liveServer(t, e)
	ctx := browsertest.NewBrowser(t, 412, 915)
	qingjiao := `[data-testid="ranking-row"][data-entry="qingjiao"]`
	browsertest.Browse(t, ctx,
		chromedp.Navigate(ts.URL+"/r/gpu-cloud?lang=en"),
		chromedp.WaitVisible(chromedp.CSS(qingjiao)),
	)
	if rank := browsertest.Value(t, ctx, chromedp.AttributeValue(chromedp.CSS(qingjiao), "data-rank")); rank.Value != "9" {
		t.Fatalf("Qingjiao at %q before edition 2, want 9", rank.Value)
	}
	browsertest.Value(t, ctx, chromedp.Evaluate[bool](`window.__sameDocument = true`))
	deadline := time.Now().Add(10 * time.Second)
	for webtest.Streams(t, e.Srv) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the page never opened its event stream")
		}
		time.Sleep(10 * time.Millisecond)
	}

	start := time.Now()
	e.Publish("demo-qingjiao-2")
	projected := time.Now()
	browsertest.Browse(t, ctx,
		chromedp.WaitVisible(chromedp.CSS(qingjiao+`[data-rank="8"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="live-notice"]`)),
	)
	shown := time.Now()
	if !browsertest.Value(t, ctx, chromedp.Evaluate[bool](`window.__sameDocument === true`)) {
		t.Error("the page reloaded instead of swapping its content")
	}
	if notice := browsertest.Value(t, ctx, chromedp.Text(chromedp.CSS(`[data-testid="live-notice"]`))); notice != "A new edition was published." {
		t.Errorf("notice %q", notice)
	}
	edition := browsertest.Value(t, ctx, chromedp.Text(chromedp.CSS(`[data-testid="edition-number"]`)))
	move := browsertest.Value(t, ctx, chromedp.Text(chromedp.CSS(qingjiao+` [data-testid="move"] [aria-hidden]`)))
	if edition != "Edition 2" || move != "▲1" {
		t.Errorf("after the update: %q, Qingjiao %q", edition, move)
	}
	// The time is reported, not asserted: on a loaded machine it says
	// nothing about the page (the push itself is what is checked above).
	t.Logf("publish → projected %v; projected → shown in the browser %v (total %v)",
		projected.Sub(start).Round(time.Millisecond), shown.Sub(projected).Round(time.Millisecond), shown.Sub(start).Round(time.Millisecond))
}

// TestBrowserScreenshots renders the ranking, an entry page and an
// edition's changelog in both languages at phone width, checks nothing is
// wider than the screen, and saves screenshots.
func TestBrowserScreenshots(t *testing.T) {
	browsertest.SkipShort(t)
	e := newSiteEnv(t)
	e.Publish("demo-qingjiao-2")
	ts := liveServer(t, e)
	ctx := browsertest.NewBrowser(t, 412, 915)
	pages := []struct{ name, path, ready string }{
		{"ranking", "/r/gpu-cloud", `[data-testid="ranking-row"]`},
		{"ranking-training-needs", "/r/gpu-cloud?scenario=training&interruptible=yes", `[data-testid="excluded-row"]`},
		{"entry", "/r/gpu-cloud/e/zhixingyun", `[data-testid="evidence"]`},
		{"edition", "/r/gpu-cloud/editions/2", `[data-testid="change-row"]`},
		{"editions", "/r/gpu-cloud/editions", `main`},
		{"methodology", "/r/gpu-cloud/methodology", `main`},
		{"compare", "/r/gpu-cloud/compare?a=zhixingyun&b=qingcloud&c=ppio", `[data-testid="compare-table"]`},
		{"not-found", "/r/gpu-cloud/e/no-such-entry", `[data-testid="error-page"]`},
	}
	for _, lang := range []string{"zh", "en"} {
		for _, p := range pages {
			sep := "?"
			if strings.Contains(p.path, "?") {
				sep = "&"
			}
			browsertest.Browse(t, ctx,
				chromedp.Navigate(ts.URL+p.path+sep+"lang="+lang),
				chromedp.WaitVisible(chromedp.CSS(p.ready)),
			)
			overflow := browsertest.Value(t, ctx, chromedp.Evaluate[bool](`document.documentElement.scrollWidth > document.documentElement.clientWidth`))
			if overflow {
				t.Errorf("%s (%s) is wider than a phone screen", p.name, lang)
			}
			if got := browsertest.Value(t, ctx, chromedp.Evaluate[string](`document.documentElement.lang`)); !strings.HasPrefix(got, lang) {
				t.Errorf("%s: page language %q, want %s", p.name, got, lang)
			}
			browsertest.CheckAccessibility(t, ctx, p.path+" ("+lang+")")
			browsertest.Screenshot(t, ctx, p.name+"-"+lang)
		}
	}
	// Each page closed its event stream when it was left: a browser holds
	// only six connections to a host, and old streams would starve it.
	deadline := time.Now().Add(3 * time.Second)
	for webtest.Streams(t, e.Srv) > 1 {
		if time.Now().After(deadline) {
			t.Fatalf("%d event streams open after visiting 16 pages in one tab", webtest.Streams(t, e.Srv))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestBrowserStaticExport opens the exported folder from file:// and
// follows a link from the ranking to an entry.
func TestBrowserStaticExport(t *testing.T) {
	browsertest.SkipShort(t)
	e := newSiteEnv(t)
	dir := filepath.Join(t.TempDir(), "site")
	if _, err := site.Export(e.Ctx, e.Read, dir, time.Now()); err != nil {
		t.Fatal(err)
	}
	ctx := browsertest.NewBrowser(t, 412, 915)
	browsertest.Browse(t, ctx,
		chromedp.Navigate("file://"+filepath.Join(dir, "en", "index.html")),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="ranking-row"]`)),
	)
	rows := browsertest.Value(t, ctx, chromedp.Evaluate[int](`document.querySelectorAll('[data-testid="ranking-row"]').length`))
	// public.css rounds the table's corners: the relative stylesheet loaded.
	styled := browsertest.Value(t, ctx, chromedp.Evaluate[bool](`getComputedStyle(document.querySelector('.pub-table-wrap')).borderTopLeftRadius !== '0px'`))
	browsertest.Browse(t, ctx,
		chromedp.Click(chromedp.CSS(`[data-testid="ranking-row"][data-entry="ppio"] [data-testid="entry-link"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="entry"]`)),
	)
	entry := browsertest.Value(t, ctx, chromedp.Text(chromedp.CSS(`[data-testid="entry-name"]`)))
	if rows != 9 || !styled || entry != "PPIO" {
		t.Errorf("file:// export: %d rows, styled %v, entry %q", rows, styled, entry)
	}
	browsertest.Screenshot(t, ctx, "export-entry-en")
}

// liveServer serves e over HTTP until the test ends; its event streams
// are closed first, or Close would wait for them forever.
func liveServer(t *testing.T, e *siteEnv) *httptest.Server {
	ts := httptest.NewServer(e.Srv.Handler())
	t.Cleanup(ts.Close)
	t.Cleanup(e.Srv.CloseStreams)
	return ts
}
