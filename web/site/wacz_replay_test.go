package site_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/web"
	"github.com/crossrank/crossrank/web/webtest"
	"github.com/crossrank/crossrank/web/webtest/browsertest"
)

// wabacDir holds the npm project of ReplayWeb.page's engine
// (@webrecorder/wabac): `npm ci` there installs it (.ci/run does). It
// pins 2.27.1: 2.27.3, the version issue 44 tried, asks for a warcio
// newer than the registry this project reaches holds.
const wabacDir = "testdata/wabac"

// TestBrowserWACZReplays: ReplayWeb.page's engine, @webrecorder/wabac,
// running in Chromium as ReplayWeb.page runs it (a service worker), loads
// an edition's WACZ by its URL from the site, on another origin, reading
// it by ranges (on demand, not downloaded whole), lists its page, and
// replays the captured page: the body as archived, with its status and
// type. This is the outsider's check of issue 44: the old WACZ (no CDXJ
// index, no ranges, no CORS) loaded the page list and found no resource.
func TestBrowserWACZReplays(t *testing.T) {
	browsertest.SkipShort(t)
	sw := filepath.Join(wabacDir, "node_modules", "@webrecorder", "wabac", "dist", "sw.js")
	if _, err := os.Stat(sw); err != nil {
		const install = "run `npm ci --no-audit --no-fund` in web/site/" + wabacDir
		if os.Getenv("CROSSRANK_REQUIRE_BROWSER") == "1" {
			t.Fatalf("CROSSRANK_REQUIRE_BROWSER=1 but @webrecorder/wabac is not installed (%v): %s", err, install)
		}
		t.Skipf("replay test skipped: @webrecorder/wabac is not installed (%s; set CROSSRANK_REQUIRE_BROWSER=1 to make this a failure)", install)
	}
	t.Parallel()
	copies := webtest.Shelf{}
	const page = "<!doctype html><title>Prices</title><p>RTX 4090 on demand, ¥1.98/h</p>"
	key := copies.Put(page, "text/html; charset=utf-8", "https://example.org/prices?gpu=4090", webtest.Fetched)
	e := newSiteEnvWith(t, func(c *web.Config) { c.Captures = copies })
	e.PublishCapture("ppio", "gpu-coverage", key, "text/html; charset=utf-8", "https://example.org/prices?gpu=4090")
	ed, err := e.Cmd.Edition(e.Ctx, demo.RankingSlug)
	if err != nil {
		t.Fatal(err)
	}
	// The site, counting the player's reads of the WACZ: ranged, or
	// whole.
	h := e.Srv.Handler()
	var ranged, whole atomic.Int64
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, ".wacz") {
			if r.Header.Get("Range") != "" {
				ranged.Add(1)
			} else {
				whole.Add(1)
			}
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(site.Close)

	// The player is served from another origin than the site (localhost
	// and 127.0.0.1 differ, and both are secure contexts, which service
	// workers need), as a player elsewhere on the web would be.
	player := http.NewServeMux()
	player.HandleFunc("GET /replay/{$}", func(w http.ResponseWriter, r *http.Request) {
		http.ServeFile(w, r, filepath.Join(wabacDir, "replay.html"))
	})
	player.HandleFunc("GET /replay/sw.js", func(w http.ResponseWriter, r *http.Request) {
		http.ServeFile(w, r, sw)
	})
	harness := httptest.NewServer(player)
	t.Cleanup(harness.Close)
	playerURL := strings.Replace(harness.URL, "127.0.0.1", "localhost", 1)
	if !strings.HasPrefix(site.URL, "http://127.0.0.1:") {
		t.Fatalf("site at %s: want 127.0.0.1, so the player's localhost is another origin", site.URL)
	}

	wacz := site.URL + "/r/" + demo.RankingSlug + "/editions/" + strconv.Itoa(ed.Number) + "/evidence.wacz"
	q := url.Values{"wacz": {wacz}, "url": {"https://example.org/prices?gpu=4090"}, "ts": {webtest.Fetched.Format("20060102150405")}}
	ctx := browsertest.NewBrowser(t, 800, 600)
	browsertest.Browse(t, ctx, chromedp.Navigate(playerURL+"/replay/?"+q.Encode()))
	raw := browsertest.Value(t, ctx, chromedp.Evaluate[json.RawMessage](`window.replay.then((r) => JSON.stringify(r))`, chromedp.EvalAwaitPromise))
	var got struct {
		Error    string
		OnDemand bool
		Checks   []struct {
			ID, Expected string
			Matched      bool
		}
		Pages       []string
		Status      int
		ContentType string
		Body        string
	}
	var text string
	if err := json.Unmarshal(raw, &text); err != nil {
		t.Fatalf("replay: %s: %v", raw, err)
	}
	if err := json.Unmarshal([]byte(text), &got); err != nil {
		t.Fatalf("replay: %s: %v", text, err)
	}
	t.Logf("wabac: on demand %v, %d ranged reads and %d whole, pages %v, digests %+v, replay %d %s",
		got.OnDemand, ranged.Load(), whole.Load(), got.Pages, got.Checks, got.Status, got.ContentType)
	if got.Error != "" {
		t.Fatalf("wabac did not load the WACZ: %s", got.Error)
	}
	if !got.OnDemand || whole.Load() != 0 || ranged.Load() == 0 {
		t.Errorf("wabac read the WACZ %d times whole and %d by ranges (on demand %v), want only ranges", whole.Load(), ranged.Load(), got.OnDemand)
	}
	// wabac 2.27 registers each index's expected digest under the WACZ's
	// name ("defaultindexes/index.cdx") but looks it up without it, so it
	// never completes that check and leaves it unmatched; the Go tests
	// check the index's digest (readWACZ). Every other check must pass.
	checked := 0
	for _, c := range got.Checks {
		switch {
		case c.ID == "signature" || strings.HasSuffix(c.ID, "indexes/index.cdx"):
		case c.Matched:
			checked++
		default:
			t.Errorf("wabac finds %s does not match its digest %s in datapackage.json", c.ID, c.Expected)
		}
	}
	if checked == 0 {
		t.Errorf("wabac checked no file against datapackage.json: %+v", got.Checks)
	}
	if len(got.Pages) != 1 || got.Pages[0] != "https://example.org/prices?gpu=4090" {
		t.Errorf("wabac lists pages %v", got.Pages)
	}
	if got.Status != http.StatusOK || got.Body != page || !strings.HasPrefix(got.ContentType, "text/html") {
		t.Errorf("wabac replays the captured page as %d %q %q, want 200 text/html %q", got.Status, got.ContentType, got.Body, page)
	}
}
