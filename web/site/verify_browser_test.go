package site

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
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
	Details   []string         `json:"details"`
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
// security policy, in English and in Chinese, where no detail line reads
// as English; on every test vector it finds exactly the failing checks
// vectors.json lists, saying why in Chinese, and recomputes every good
// vector's snapshots to the bytes the vectors hold.
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
		for _, lang := range []string{"en", "zh"} {
			states := verifyPageStates(t, ctx, ts.URL+page+"?lang="+lang, "verify-edition-"+strconv.Itoa(n)+"-"+lang)
			if states["status"] != "pass" {
				t.Errorf("edition %d, %s: %v", n, lang, states)
			}
			for _, c := range verifyChecks {
				s := states[c]
				if len(s) < 4 || s[:4] != "pass" {
					t.Errorf("edition %d, %s: check %s: %q", n, lang, c, s)
				}
				if lang == "zh" {
					checkChinese(t, "edition "+strconv.Itoa(n)+" check "+c, s[min(len(s), 5):])
				}
			}
		}
	}
	if editions == 0 {
		t.Fatal("the demo has no edition to verify")
	}

	checkVectors(t, ctx)
}

// verifyPageStates opens a verify page, waits for its checks and returns
// each check's state and detail line, and the page's status.
func verifyPageStates(t *testing.T, ctx context.Context, url, shot string) map[string]string {
	t.Helper()
	done := `[data-testid="verify-status"]:not([data-state="idle"]):not([data-state="running"])`
	browsertest.Browse(t, ctx, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS(done)))
	browsertest.Screenshot(t, ctx, shot)
	return browsertest.Value(t, ctx, chromedp.Evaluate[map[string]string](`(function () {
			var out = {status: document.querySelector('[data-testid="verify-status"]').getAttribute("data-state")};
			document.querySelectorAll("[data-check]").forEach(function (li) {
				out[li.getAttribute("data-check")] = li.getAttribute("data-state") + " " + li.querySelector("[data-detail]").textContent;
			});
			return out;
		})()`))
}

// englishWords are words of the English detail lines that no Chinese line
// holds (identifiers such as evidence_captured or manifest.json aside).
var englishWords = regexp.MustCompile(`(?i)\b(the|of|and|is|not|edition|editions|sequence|match|matches|recomputed|missing|items|digests|line|key|signed|want)\b`)

// checkChinese fails unless detail, a line a Chinese page shows, reads as
// Chinese: some Han, and none of the English lines' words.
func checkChinese(t *testing.T, what, detail string) {
	t.Helper()
	if !regexp.MustCompile(`\p{Han}`).MatchString(detail) || englishWords.MatchString(detail) {
		t.Errorf("%s, in Chinese: %q reads as English", what, detail)
	}
}

// checkVectors runs the script on every test vector, worded in Chinese
// (the words of the page open in ctx): it finds exactly the failing checks
// vectors.json lists, says why in Chinese, and recomputes every good
// vector's snapshots to the bytes the vectors hold.
func checkVectors(t *testing.T, ctx context.Context) {
	t.Helper()
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
		var words = JSON.parse(document.getElementById("verify-words").textContent);
		var out = [];
		for (var i = 0; i < list.length; i++) {
			var buf = await (await fetch("/vectors/" + list[i].file)).arrayBuffer();
			var r = await window.CrossrankVerify.verify(buf, key, null, words);
			var failed = r.checks.filter(function (c) { return !c.ok; });
			out.push({name: list[i].name, failing: failed.map(function (c) { return c.name; }),
				details: failed.map(function (c) { return c.detail; }), snapshots: r.snapshots});
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
		for _, d := range g.Details {
			checkChinese(t, w.Name, d)
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
