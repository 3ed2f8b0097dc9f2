package web

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// chromiumPath is Debian's Chromium (apt-get install chromium).
const chromiumPath = "/usr/bin/chromium"

// newBrowser starts a headless Chromium for the test and returns a tab's
// context, closed at the end of the test. Without Chromium the test is
// skipped, unless CROSSRANK_REQUIRE_BROWSER=1 (CI's browser job), when it
// fails.
func newBrowser(t *testing.T, width, height int) context.Context {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err != nil {
		if os.Getenv("CROSSRANK_REQUIRE_BROWSER") == "1" {
			t.Fatalf("CROSSRANK_REQUIRE_BROWSER=1 but %s is missing: apt-get install -y chromium", chromiumPath)
		}
		t.Skipf("browser test skipped: %s not found (apt-get install -y chromium; set CROSSRANK_REQUIRE_BROWSER=1 to make this a failure)", chromiumPath)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromiumPath),
		chromedp.Flag("headless", true),
		chromedp.NoSandbox, // root in containers and CI
		chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.NoFirstRun,
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(width, height),
		chromedp.Flag("lang", "en-US"),
	}
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelTab := chromedp.NewContext(allocCtx)
	t.Cleanup(func() { cancelTab(); cancelAlloc() })
	// The first action starts the browser, which lives as long as ctx: no
	// timeout on it (see chromedp.Run); steps take theirs from browse.
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	return ctx
}

// browse runs steps in the tab, failing the test after 30 seconds.
func browse(t *testing.T, ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatalf("browser: %v", err)
	}
}

// browserValue runs one action in the tab and returns its value.
func browserValue[T any](t *testing.T, ctx context.Context, a chromedp.Action[T]) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		t.Fatalf("browser: %v", err)
	}
	return v
}

// screenshot saves a full-page PNG under testdata/screenshots (git-ignored).
func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	png := browserValue(t, ctx, chromedp.FullScreenshot(100))
	dir := filepath.Join("testdata", "screenshots")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}
