package site

import (
	"bytes"
	"crypto/ed25519"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/crossrank/crossrank/web/ui"
	"github.com/crossrank/crossrank/web/webtest/browsertest"
)

// vectorsDir holds the bundle test vectors (docs/bundle-vectors), written
// and checked against the Go verifier by domain/bundle's TestVectors.
var vectorsDir = filepath.Join("..", "..", "docs", "bundle-vectors")

// vectorResult is what the page's script found in one vector.
type vectorResult struct {
	Name      string           `json:"name"`
	Failing   []string         `json:"failing"`
	Snapshots []vectorSnapshot `json:"snapshots"`
}

// vectorSnapshot is one edition's snapshot as the script recomputed it.
type vectorSnapshot struct {
	Edition int    `json:"edition"`
	Hash    string `json:"hash"`
	JSON    string `json:"json"`
}

// TestBrowserVerifyVectors runs the browser verifier (verify.js, which
// shares no code with domain/bundle) in Chromium: on the demo's editions
// through their verify pages every check passes, under the site's content
// security policy; on every test vector it finds exactly the failing
// checks vectors.json lists, and recomputes every good vector's snapshots
// to the bytes the vectors hold.
func TestBrowserVerifyVectors(t *testing.T) {
	browsertest.SkipShort(t)
	// The vectors' key (domain/bundle vectors_test.go): the demo's bundles
	// and the vectors verify against one pinned key.
	key := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{7}, ed25519.SeedSize))
	e := newEnvSigning(t, 0, key)
	mux := http.NewServeMux()
	mux.Handle("/static/", ui.Static())
	mux.Handle("/vectors/", http.StripPrefix("/vectors/", http.FileServer(http.Dir(vectorsDir))))
	mux.Handle("/", e.handler)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The policy web's middleware sets, with the nonce the env uses.
		w.Header().Set("Content-Security-Policy", "default-src 'self'; script-src 'self' 'nonce-test-nonce'; style-src 'self' 'nonce-test-nonce'; img-src 'self' data:")
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	ctx := browsertest.NewBrowser(t, 1366, 900)

	editions := 0
	for n := 1; ; n++ {
		page := "/r/gpu-cloud/editions/" + strconv.Itoa(n) + "/verify"
		if res, _ := e.get(page); res.StatusCode == http.StatusNotFound {
			break
		}
		editions++
		done := `[data-testid="verify-status"]:not([data-state="idle"]):not([data-state="running"])`
		browsertest.Browse(t, ctx, chromedp.Navigate(ts.URL+page+"?lang=en"), chromedp.WaitVisible(chromedp.CSS(done)))
		browsertest.Screenshot(t, ctx, "verify-edition-"+strconv.Itoa(n))
		states := browsertest.Value(t, ctx, chromedp.Evaluate[map[string]string](`(function () {
			var out = {status: document.querySelector('[data-testid="verify-status"]').getAttribute("data-state")};
			document.querySelectorAll("[data-check]").forEach(function (li) {
				out[li.getAttribute("data-check")] = li.getAttribute("data-state") + " " + li.querySelector("[data-detail]").textContent;
			});
			return out;
		})()`))
		if states["status"] != "pass" {
			t.Errorf("edition %d: %v", n, states)
		}
		for _, c := range verifyChecks {
			if s := states[c]; len(s) < 4 || s[:4] != "pass" {
				t.Errorf("edition %d: check %s: %q", n, c, s)
			}
		}
	}
	if editions == 0 {
		t.Fatal("the demo has no edition to verify")
	}

	var want []struct {
		Name     string   `json:"name"`
		Failing  []string `json:"failing"`
		Editions []struct {
			Edition      int    `json:"edition"`
			SnapshotHash string `json:"snapshot_hash"`
			Snapshot     string `json:"snapshot"`
		} `json:"editions"`
	}
	b, err := os.ReadFile(filepath.Join(vectorsDir, "vectors.json"))
	if err == nil {
		err = json.Unmarshal(b, &want)
	}
	if err != nil || len(want) == 0 {
		t.Fatalf("vectors.json: %v", err)
	}
	got := browsertest.Value(t, ctx, chromedp.Evaluate[[]vectorResult](`(async function () {
		var list = await (await fetch("/vectors/vectors.json")).json();
		var key = await (await fetch("/vectors/key.jwks")).text();
		var out = [];
		for (var i = 0; i < list.length; i++) {
			var buf = await (await fetch("/vectors/" + list[i].file)).arrayBuffer();
			var r = await window.CrossrankVerify.verify(buf, key);
			out.push({name: list[i].name, failing: r.checks.filter(function (c) { return !c.ok; }).map(function (c) { return c.name; }), snapshots: r.snapshots});
		}
		return out;
	})()`, chromedp.EvalAwaitPromise))
	if len(got) != len(want) {
		t.Fatalf("the script checked %d vectors, vectors.json lists %d", len(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		if !slices.Equal(g.Failing, w.Failing) && !(len(g.Failing) == 0 && len(w.Failing) == 0) {
			t.Errorf("%s: the browser verifier fails %v, want %v", w.Name, g.Failing, w.Failing)
		}
		for _, we := range w.Editions {
			i := slices.IndexFunc(g.Snapshots, func(s vectorSnapshot) bool { return s.Edition == we.Edition })
			snap, _ := os.ReadFile(filepath.Join(vectorsDir, we.Snapshot))
			if i < 0 || g.Snapshots[i].Hash != we.SnapshotHash || g.Snapshots[i].JSON != string(snap) {
				t.Errorf("%s edition %d: the browser did not recompute snapshot %s", w.Name, we.Edition, we.SnapshotHash)
			}
		}
	}
}
