package jstest

import (
	"flag"
	"runtime"
	"strconv"
	"testing"
)

// Run runs a package's tests with at least four of its parallel tests at
// once, more than a small machine has cores (go test's default -parallel
// is GOMAXPROCS), and returns the exit code for os.Exit. Tests on a real
// JetStream server spend most of their time waiting on acknowledgements,
// timers, schedules and the projection catching up, not on the CPU: two
// at once on a two-core machine leave it mostly idle. An explicit
// -parallel wins.
func Run(m *testing.M) int {
	flag.Parse()
	explicit := false
	flag.Visit(func(f *flag.Flag) { explicit = explicit || f.Name == "test.parallel" })
	if !explicit {
		_ = flag.Set("test.parallel", strconv.Itoa(max(4, runtime.GOMAXPROCS(0))))
	}
	return m.Run()
}
