// Package walk10k re-runs issue 42's table by hand, as a newsroom would:
// a served Crossrank, a 10,000-entry ranking file imported through the
// desk's import page, reviewed by two reviewers a page at a time (tick
// all, approve), published from the publish page, and read, all in
// headless Chromium, each page's time and size logged as a ROW line.
// It lives under testdata so that `go test ./...` leaves it out; run it
// by naming it (BENCHMARKS.md, "The table by hand"):
//
//	go test -count=1 -run TestFile ./docs/testdata/walk10k/   # writes /tmp/big10k.json
//	go run ./cmd/crossrank serve --data /tmp/big --addr 127.0.0.1:8099   # note the demo password
//	export WALK_URL=http://127.0.0.1:8099 WALK_PASS=<demo password> WALK_FILE=/tmp/big10k.json
//	for s in TestImport TestEditorPages TestSearch TestReview1 TestReview2 TestPublish TestReader TestSignedInEdition; do
//	  go test -count=1 -v -timeout 60m -run "^$s\$" ./docs/testdata/walk10k/ | grep ROW
//	done
package walk10k

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/crossrank/crossrank/domain/rankfile"
)

var (
	base = os.Getenv("WALK_URL")
	pass = os.Getenv("WALK_PASS")
)

func browser(t *testing.T) context.Context {
	if base == "" {
		t.Skip("set WALK_URL, WALK_PASS and WALK_FILE (see the package comment)")
	}
	profile := t.TempDir()
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath("/usr/bin/chromium-headless-shell"),
		chromedp.Flag("headless", true), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.NoFirstRun, chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(profile), chromedp.WindowSize(1366, 900),
	}
	alloc, c1 := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, c2 := chromedp.NewContext(alloc)
	t.Cleanup(func() { c2(); c1() })
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatal(err)
	}
	return ctx
}

func do(t *testing.T, ctx context.Context, d time.Duration, steps ...chromedp.Action[chromedp.Void]) time.Duration {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	start := time.Now()
	if err := chromedp.Do(c, steps...); err != nil {
		t.Fatalf("browser: %v", err)
	}
	return time.Since(start)
}

func val[T any](t *testing.T, ctx context.Context, a chromedp.Action[T]) T {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, 120*time.Second)
	defer cancel()
	v, err := chromedp.Run(c, a)
	if err != nil {
		t.Fatalf("browser: %v", err)
	}
	return v
}

func signIn(t *testing.T, user string) context.Context {
	ctx := browser(t)
	do(t, ctx, time.Minute,
		chromedp.Navigate(base+"/login?next=%2Fdesk&lang=en"),
		chromedp.WaitVisible(chromedp.CSS(`#username`)),
		chromedp.SendKeys(chromedp.CSS(`#username`), user),
		chromedp.SendKeys(chromedp.CSS(`#password`), pass),
		chromedp.Click(chromedp.CSS(`[data-testid="login-submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="dashboard"]`)),
	)
	return ctx
}

// page opens path and reports the load time, the HTML size and the status.
func page(t *testing.T, ctx context.Context, label, path, ready string) {
	t.Helper()
	took := do(t, ctx, 3*time.Minute, chromedp.Navigate(base+path), chromedp.WaitVisible(chromedp.CSS(ready)))
	size := val(t, ctx, chromedp.Evaluate[int](`document.documentElement.outerHTML.length`))
	ent := val(t, ctx, chromedp.Evaluate[string](`(() => { const e = performance.getEntriesByType("navigation")[0]; return e.responseStatus + " transfer " + e.transferSize + " B, decoded " + e.decodedBodySize + " B, ttfb " + Math.round(e.responseStart - e.requestStart) + " ms, load " + Math.round(e.loadEventEnd - e.startTime) + " ms" })()`))
	title := val(t, ctx, chromedp.Evaluate[string](`document.title`))
	t.Logf("ROW %-40s %6.0f ms in Chromium, DOM %d chars; %s; %q", label, float64(took.Microseconds())/1000, size, ent, title)
}

func text(t *testing.T, ctx context.Context, sel string) string {
	return strings.Join(strings.Fields(val(t, ctx, chromedp.Text(chromedp.CSS(sel)))), " ")
}

func TestImport(t *testing.T) {
	ctx := signIn(t, "editor")
	page(t, ctx, "/desk/import", "/desk/import?lang=en", `[data-testid="import-form"]`)
	took := do(t, ctx, 10*time.Minute,
		chromedp.SetUploadFiles(chromedp.CSS(`[data-testid="import-file"]`), []string{os.Getenv("WALK_FILE")}),
		chromedp.Click(chromedp.CSS(`[data-testid="import-check"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="import-confirm"]`)),
	)
	t.Logf("ROW dry run of the 10,000-entry file: %v; %s", took.Round(time.Millisecond), text(t, ctx, `[data-testid="import-job"]`)[:300])
	start := time.Now()
	do(t, ctx, time.Minute, chromedp.Click(chromedp.CSS(`[data-testid="import-confirm"]`)), chromedp.WaitVisible(chromedp.CSS(`[data-testid="import-job"]`)))
	for {
		state := val(t, ctx, chromedp.AttributeValue(chromedp.CSS(`[data-testid="import-job"]`), "data-state"))
		if !state.Exists {
			t.Fatal("no state")
		}
		if state.Value != "opening" && state.Value != "checked" {
			t.Logf("ROW import confirmed → %s after %v: %s", state.Value, time.Since(start).Round(time.Second), text(t, ctx, `[data-testid="import-job"]`))
			break
		}
		time.Sleep(10 * time.Second)
		do(t, ctx, time.Minute, chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(`[data-testid="import-job"]`)))
		if p, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`[data-testid="import-job"]`))); err == nil {
			t.Logf("  %v %s: %.200s", time.Since(start).Round(time.Second), state.Value, strings.Join(strings.Fields(p), " "))
		}
	}
	loc := val(t, ctx, chromedp.Location())
	t.Logf("job page %s", loc)
	os.WriteFile("/tmp/walk-import-url", []byte(loc), 0o644)
}

func TestEditorPages(t *testing.T) {
	ctx := signIn(t, "editor")
	page(t, ctx, "/desk as editor", "/desk?lang=en", `[data-testid="dashboard"]`)
	page(t, ctx, "/desk/inbox (editor)", "/desk/inbox?lang=en", `main`)
	t.Logf("inbox: %.600s", text(t, ctx, `main`))
	if b, err := os.ReadFile("/tmp/walk-import-url"); err == nil {
		do(t, ctx, time.Minute, chromedp.Navigate(string(b)), chromedp.WaitVisible(chromedp.CSS(`[data-testid="import-job"]`)))
		if c, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`[data-testid="import-captures"]`))); err == nil {
			t.Logf("ROW capture progress on the import page: %s", strings.Join(strings.Fields(c), " "))
		}
		if c, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.querySelector('[data-testid="import-captures-retrying"]') || {}).textContent || "(no retrying line)"`)); err == nil {
			t.Logf("ROW failing now: %s", c)
		}
	}
	page(t, ctx, "/desk/search?q=指标 (CJK)", "/desk/search?q=%E6%8C%87%E6%A0%87&lang=en", `main`)
	page(t, ctx, "/desk/search?q=Entry", "/desk/search?q=Entry&lang=en", `main`)
	page(t, ctx, "/desk/proposals (list)", "/desk/proposals?lang=en", `main`)
}

func review(t *testing.T, user string) {
	ctx := signIn(t, user)
	page(t, ctx, "/desk as "+user, "/desk?lang=en", `[data-testid="dashboard"]`)
	path := "/desk/review?ranking=big10k&unapproved=1&lang=en"
	page(t, ctx, "/desk/review first page ("+user+")", path, `[data-testid="review"]`)
	var pages int
	start := time.Now()
	var slowest time.Duration
	for {
		n := val(t, ctx, chromedp.Evaluate[int](`document.querySelectorAll('[data-testid="review-select"]').length`))
		if n == 0 {
			break
		}
		start1 := time.Now()
		val(t, ctx, chromedp.Evaluate[bool](`(() => { window.__old = true; const a = document.querySelector('[data-testid="review-tick-all"]'); a.click(); document.querySelector('[data-testid="review-approve"]').click(); return a.checked })()`))
		for {
			v, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.__old !== true && document.readyState === "complete" && !!document.querySelector('[data-testid="review"]')`))
			if err == nil && v {
				break
			}
			if time.Since(start1) > 3*time.Minute {
				t.Fatal("approve did not land")
			}
			time.Sleep(50 * time.Millisecond)
		}
		took := time.Since(start1)
		slowest = max(slowest, took)
		pages++
		if pages%10 == 0 {
			t.Logf("  %s: %d pages approved in %v; %s", user, pages, time.Since(start).Round(time.Second), text(t, ctx, `[data-testid="review-count"]`))
		}
		if pages > 400 {
			t.Fatal("too many pages")
		}
	}
	t.Logf("ROW %s approved %d pages of 50 in %v (slowest page %v)", user, pages, time.Since(start).Round(time.Second), slowest.Round(time.Millisecond))
	page(t, ctx, "/desk as "+user+" after", "/desk?lang=en", `[data-testid="dashboard"]`)
}

func TestReview1(t *testing.T) { review(t, "reviewer1") }
func TestReview2(t *testing.T) { review(t, "reviewer2") }

func TestPublish(t *testing.T) {
	ctx := signIn(t, "publisher")
	page(t, ctx, "/desk as publisher", "/desk?lang=en", `[data-testid="dashboard"]`)
	page(t, ctx, "/desk/publish (first load)", "/desk/publish?lang=en", `main`)
	page(t, ctx, "/desk/publish (again)", "/desk/publish?lang=en", `main`)
	took := do(t, ctx, 5*time.Minute,
		chromedp.Click(chromedp.CSS(`#ranking-big10k [data-testid="publish-select-all"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="publish-form-big10k"]`)))
	t.Logf("ROW select all: %v; %s", took.Round(time.Millisecond), text(t, ctx, `#ranking-big10k [data-testid="publish-ready-count"]`))
	took = do(t, ctx, 10*time.Minute,
		chromedp.Click(chromedp.CSS(`[data-testid="publish-form-big10k"] [data-testid="publish-confirm"]`)),
		chromedp.Click(chromedp.CSS(`[data-testid="publish-form-big10k"] [data-testid="publish-submit"]`)),
		chromedp.WaitNotPresent(chromedp.CSS(`[data-testid="publish-form-big10k"]`)),
		chromedp.WaitVisible(chromedp.CSS(`main`)),
	)
	loc := val(t, ctx, chromedp.Location())
	ent := val(t, ctx, chromedp.Evaluate[string](`(() => { const e = performance.getEntriesByType("navigation")[0]; return e.responseStatus + " " + e.decodedBodySize + " B" })()`))
	t.Logf("ROW publish: landed on %s after %v: %s; %.300s", loc, took.Round(time.Millisecond), ent, text(t, ctx, `main`))
}

func TestReader(t *testing.T) {
	ctx := browser(t)
	for _, p := range []string{"/r/big10k?lang=en", "/r/big10k?lang=en", "/r/big10k/editions/1?lang=en", "/r/big10k/editions/1?lang=en", "/r/big10k/e/entry-00042?lang=en", "/r/big10k?page=100&lang=en", "/r/big10k/compare?a=entry-00001&b=entry-00002&lang=en", "/r/big10k/methodology?lang=en"} {
		page(t, ctx, p, p, `main`)
	}
}

func TestSignedInEdition(t *testing.T) {
	ctx := signIn(t, "publisher")
	page(t, ctx, "/r/big10k/editions/1 signed in", "/r/big10k/editions/1?lang=en", `main`)
	page(t, ctx, "/desk/inbox (publisher)", "/desk/inbox?lang=en", `main`)
}

func TestSearch(t *testing.T) {
	ctx := signIn(t, "editor")
	page(t, ctx, "/desk/search?q=条目 (CJK, every entry)", "/desk/search?q=%E6%9D%A1%E7%9B%AE&lang=en", `main`)
	page(t, ctx, "/desk/search?q=条目42", "/desk/search?q=%E6%9D%A1%E7%9B%AE42&lang=en", `main`)
	page(t, ctx, "/desk/search?q=Entry 42", "/desk/search?q=Entry+42&lang=en", `main`)
}

// TestFile writes the ranking file the walk imports: 10,000 entries, 10
// criteria, 3 sources each (30,000), as the big10k.json.
func TestFile(t *testing.T) {
	b, err := json.Marshal(rankfile.Generate("big10k", rankfile.Size{Entries: 10000, Criteria: 10, Evidence: 3, Seed: 42}))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("/tmp/big10k.json", b, 0o644); err != nil {
		t.Fatal(err)
	}
}
