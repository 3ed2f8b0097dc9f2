package web

import (
	"flag"
	"os"
	"runtime"
	"strconv"
	"testing"
)

// TestMain lets at least four tests of this package run at once, more
// than a small machine has cores (go test's default -parallel): most of a
// test's time here is spent waiting on JetStream acknowledgements, SQLite
// commits and the projection catching up, not on the CPU. An explicit
// -parallel wins. The tests that build thousands of entries stay
// sequential: they run first, alone, and do not slow the others' deadlines.
func TestMain(m *testing.M) {
	flag.Parse()
	explicit := false
	flag.Visit(func(f *flag.Flag) { explicit = explicit || f.Name == "test.parallel" })
	if !explicit {
		_ = flag.Set("test.parallel", strconv.Itoa(max(4, runtime.GOMAXPROCS(0))))
	}
	code := m.Run()
	closeBrowsers()
	os.Exit(code)
}
