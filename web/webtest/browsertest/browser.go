// Package browsertest drives a real headless Chromium in tests: one
// process per window size shared by a package's tests, a fresh browser
// context per test, and axe-core's accessibility rules. It imports no
// server package, so package web's own tests and the packages beside it
// share it; a package using it calls CloseBrowsers from its TestMain.
package browsertest

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// chromiums are Debian's two builds of Chromium, in the order the tests
// prefer them: chromium-headless-shell, the headless-only build (the one
// Puppeteer and Playwright run headless), then the full browser. Both
// render with the same Blink and V8; the shell leaves out the browser's
// own UI and services, which cost the full build's browser process as much
// CPU as the pages did (TestBrowserDesk: 54 core-seconds with chromium,
// 33 with the shell, on a two-core machine where these tests are
// CPU-bound).
var chromiums = []string{"/usr/bin/chromium-headless-shell", "/usr/bin/chromium"}

// chromiumPath is the first of chromiums installed, or "".
var chromiumPath = sync.OnceValue(func() string {
	for _, p := range chromiums {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return ""
})

// NewBrowser returns a tab of a headless Chromium at width×height, in a
// browser context of its own (the cookies, storage and cache of a fresh
// profile), closed at the end of the test. The Chromium process is shared
// by every test asking for that window size (see sharedBrowser): starting
// one costs seconds, a browser context milliseconds. Without Chromium the
// test is skipped, unless CROSSRANK_REQUIRE_BROWSER=1 (CI's browser job),
// when it fails.
func NewBrowser(t *testing.T, width, height int) context.Context {
	t.Helper()
	SkipShort(t)
	if chromiumPath() == "" {
		const install = "apt-get install -y chromium-headless-shell, or chromium"
		if os.Getenv("CROSSRANK_REQUIRE_BROWSER") == "1" {
			t.Fatalf("CROSSRANK_REQUIRE_BROWSER=1 but none of %v is installed: %s", chromiums, install)
		}
		t.Skipf("browser test skipped: none of %v is installed (%s; set CROSSRANK_REQUIRE_BROWSER=1 to make this a failure)", chromiums, install)
	}
	browserCtx, err := sharedBrowser(width, height)
	if err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	ctx, cancelTab := chromedp.NewContext(browserCtx, chromedp.WithNewBrowserContext())
	t.Cleanup(cancelTab)
	// The first action opens the tab, which lives as long as ctx: no
	// timeout on it (see chromedp.Run); steps take theirs from browse.
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatalf("open a chromium tab: %v", err)
	}
	return ctx
}

// SkipShort skips a browser test under go test -short: the quick tier
// leaves real Chromium to the full run. A test that sets up a server
// before its browser calls it first, so the quick tier spends nothing on
// it.
func SkipShort(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip("browser test: runs in the full tier (go test ./...), skipped under -short")
	}
}

// browsers are the running Chromium processes, one per window size,
// started on first use and stopped by CloseBrowsers when the package's
// tests end (TestMain).
var browsers = struct {
	sync.Mutex
	byWindow map[[2]int]*chromium
}{byWindow: map[[2]int]*chromium{}}

type chromium struct {
	ctx     context.Context // the browser's first tab: new contexts open theirs beside it
	cancel  func()
	profile string
}

// sharedBrowser returns the context of the Chromium for a window size,
// starting it if none runs.
func sharedBrowser(width, height int) (context.Context, error) {
	browsers.Lock()
	defer browsers.Unlock()
	if b, ok := browsers.byWindow[[2]int{width, height}]; ok {
		return b.ctx, nil
	}
	profile, err := os.MkdirTemp("", "crossrank-chromium-")
	if err != nil {
		return nil, err
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromiumPath()),
		chromedp.Flag("headless", true),
		chromedp.NoSandbox, // root in containers and CI
		chromedp.DisableGPU,
		// Scrollbars overlay the page, as on a phone: the page is laid out
		// at the window's width (390 px is 390, not 375 beside a classic
		// scrollbar), and a full-page screenshot, which has no scrollbar,
		// shows it at that width instead of cutting off its right edge.
		chromedp.Flag("hide-scrollbars", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.NoFirstRun,
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		// Tests share the process and run side by side: no tab is a
		// background tab whose timers and rendering Chromium slows down.
		chromedp.Flag("disable-background-timer-throttling", true),
		chromedp.Flag("disable-renderer-backgrounding", true),
		chromedp.Flag("disable-backgrounding-occluded-windows", true),
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(width, height),
		chromedp.Flag("lang", "en-US"),
	}
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelBrowser := chromedp.NewContext(allocCtx)
	b := &chromium{ctx: ctx, profile: profile, cancel: func() { cancelBrowser(); cancelAlloc(); os.RemoveAll(profile) }}
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		b.cancel()
		return nil, err
	}
	browsers.byWindow[[2]int{width, height}] = b
	return ctx, nil
}

// CloseBrowsers stops every shared Chromium.
func CloseBrowsers() {
	browsers.Lock()
	defer browsers.Unlock()
	for k, b := range browsers.byWindow {
		b.cancel()
		delete(browsers.byWindow, k)
	}
}

// Browse runs steps in the tab, failing the test after 30 seconds.
func Browse(t *testing.T, ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatalf("browser: %v", err)
	}
}

// Value runs one action in the tab and returns its value.
func Value[T any](t *testing.T, ctx context.Context, a chromedp.Action[T]) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		t.Fatalf("browser: %v", err)
	}
	return v
}

// Screenshot saves a full-page PNG under testdata/screenshots (git-ignored)
// when CROSSRANK_SCREENSHOTS=1, for a person to look at the pages; it
// asserts nothing, and a full-page capture costs Chromium as much as the
// page itself, so the tests skip it unless asked.
func Screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	if os.Getenv("CROSSRANK_SCREENSHOTS") != "1" {
		return
	}
	png := Value(t, ctx, chromedp.FullScreenshot(100))
	dir := filepath.Join("testdata", "screenshots")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}
