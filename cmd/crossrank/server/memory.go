package server

import (
	"context"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// Memory comes back after load. Go's scavenger returns freed heap to the
// system only while the heap is near its goal or the memory limit: after a
// load at 10,000 entries the server held 167 MiB of free heap a minute
// later (the bench's desk part), and the C allocator keeps what SQLite's
// closed connections freed. returnMemory watches the free heap and, once
// it is large, collects and returns it, then asks the C allocator to give
// back its free pages too.
const (
	// memoryCheckEvery is how often the free heap is looked at: one read
	// of three runtime metrics.
	memoryCheckEvery = 10 * time.Second
	// memorySlack is the free heap kept: below it nothing is done.
	memorySlack = 64 << 20
	// memoryReturnGap is the least time between two returns: each costs
	// a collection, so under a steady load the server pays one a minute at
	// most.
	memoryReturnGap = time.Minute
)

// returnMemory runs until ctx ends: every memoryCheckEvery it returns the
// free heap when memoryNeedsReturn says so.
func returnMemory(ctx context.Context) {
	t := time.NewTicker(memoryCheckEvery)
	defer t.Stop()
	var last time.Time
	samples := []metrics.Sample{{Name: "/memory/classes/heap/free:bytes"}}
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			metrics.Read(samples)
			if memoryNeedsReturn(samples[0].Value.Uint64(), now, last) {
				last = now
				returnNow()
			}
		}
	}
}

// memoryNeedsReturn: free heap (mapped, unused and not yet returned) past
// the slack, and no return in the last memoryReturnGap.
func memoryNeedsReturn(free uint64, now, last time.Time) bool {
	return free > memorySlack && now.Sub(last) >= memoryReturnGap
}

// returnNow collects, returns the free heap to the system and trims the C
// allocator.
func returnNow() {
	debug.FreeOSMemory()
	trimCHeap()
}
