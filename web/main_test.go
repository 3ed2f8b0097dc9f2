package web

import (
	"os"
	"testing"

	"github.com/crossrank/crossrank/events/jetstream/jstest"
)

// TestMain runs at least four tests of this package at once (jstest.Run):
// most of a test's time here is spent waiting on JetStream
// acknowledgements, SQLite commits and the projection catching up, not on
// the CPU.
func TestMain(m *testing.M) {
	os.Exit(jstest.Run(m))
}
