package browsertest_test

import (
	"os"
	"testing"

	"github.com/crossrank/crossrank/web/webtest/browsertest"
)

// TestMain stops the shared Chromium when the tests end.
func TestMain(m *testing.M) {
	code := m.Run()
	browsertest.CloseBrowsers()
	os.Exit(code)
}
