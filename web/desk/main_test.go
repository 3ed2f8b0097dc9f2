package desk_test

import (
	"flag"
	"os"
	"runtime"
	"strconv"
	"testing"

	"github.com/crossrank/crossrank/web/webtest/browsertest"
)

// TestMain lets at least four tests of this package run at once, more
// than a small machine has cores (go test's default -parallel): most of a
// test's time here is spent waiting on JetStream acknowledgements, SQLite
// commits, the projection catching up and the browser, not on the CPU. An
// explicit -parallel wins. The shared Chromium stops when the tests end.
func TestMain(m *testing.M) {
	flag.Parse()
	explicit := false
	flag.Visit(func(f *flag.Flag) { explicit = explicit || f.Name == "test.parallel" })
	if !explicit {
		_ = flag.Set("test.parallel", strconv.Itoa(max(4, runtime.GOMAXPROCS(0))))
	}
	code := m.Run()
	browsertest.CloseBrowsers()
	os.Exit(code)
}
