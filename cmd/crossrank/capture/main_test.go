package capture_test

import (
	"os"
	"testing"

	"github.com/crossrank/crossrank/events/jetstream/jstest"
)

// TestMain runs the tests side by side, four at once at least: they wait
// on the server more than they compute.
func TestMain(m *testing.M) { os.Exit(jstest.Run(m)) }
