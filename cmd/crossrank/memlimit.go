package main

import (
	"os"
	"runtime/debug"
)

// defaultMemoryLimitMiB is the Go heap's soft limit for `crossrank serve`
// (and the bench, which measures what serve runs). Publishing a
// 10,000-entry × 10-criterion first edition holds about 300 MiB live
// (the handler's cache of 20,000 states, the edition's parts, and the
// embedded nats-server's block cache while it checks the batch), and Go's
// collector otherwise lets the heap grow to twice what is live between
// collections: past 512 MiB. Under this limit the collector runs sooner
// instead. It is soft: a heap that truly needs more gets it (the runtime
// caps the collector's share of the CPU), so a larger ranking is slower,
// never refused.
const defaultMemoryLimitMiB = 448

// applyMemoryLimit sets the heap's soft limit to mib MiB (0 or less: no
// limit), unless GOMEMLIMIT is set: the runtime's own setting wins.
func applyMemoryLimit(mib int) {
	if os.Getenv("GOMEMLIMIT") != "" || mib <= 0 {
		return
	}
	debug.SetMemoryLimit(int64(mib) << 20)
}
