package web

import (
	"context"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/crossrank/crossrank/web/webtest/browsertest"
)

// The shared Chromium lives in web/webtest/browsertest, with the tests
// beside the packages they test; these names keep this package's tests as
// they were.

func newBrowser(t *testing.T, width, height int) context.Context {
	t.Helper()
	return browsertest.NewBrowser(t, width, height)
}

func closeBrowsers() { browsertest.CloseBrowsers() }

func browse(t *testing.T, ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	browsertest.Browse(t, ctx, steps...)
}

func browserValue[T any](t *testing.T, ctx context.Context, a chromedp.Action[T]) T {
	t.Helper()
	return browsertest.Value(t, ctx, a)
}
