package auth_test

import (
	"os"
	"testing"

	"github.com/crossrank/crossrank/events/jetstream/jstest"
	"github.com/crossrank/crossrank/web/webtest/browsertest"
)

// TestMain runs at least four tests of this package at once (jstest.Run):
// most of a test's time here is spent waiting on JetStream
// acknowledgements, SQLite commits, the projection catching up and the
// browser. The shared Chromium stops when the tests end.
func TestMain(m *testing.M) {
	code := jstest.Run(m)
	browsertest.CloseBrowsers()
	os.Exit(code)
}
