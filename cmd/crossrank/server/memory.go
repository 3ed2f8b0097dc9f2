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
// closed connections freed. returnMemory watches what a collection could
// give back — the free heap, and the objects allocated since the last
// collection beyond what it found live (garbage, until the next one: with
// no allocation after a load, two minutes away) — and, once that is
// large, collects and returns it, then asks the C allocator to give back
// its free pages too.
const (
	// memoryCheckEvery is how often the free heap is looked at: one read
	// of three runtime metrics.
	memoryCheckEvery = 10 * time.Second
	// memorySlack is what may be left to give back: below it nothing is
	// done.
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
	samples := []metrics.Sample{{Name: "/memory/classes/heap/free:bytes"},
		{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/gc/heap/live:bytes"}}
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			metrics.Read(samples)
			if memoryNeedsReturn(reclaimable(samples), now, last) {
				last = now
				returnNow()
			}
		}
	}
}

// reclaimable is what a collection and a return would give back: the
// free heap (mapped, unused, not yet returned) and the objects beyond
// those the last collection found live.
func reclaimable(s []metrics.Sample) uint64 {
	free, objects, live := s[0].Value.Uint64(), s[1].Value.Uint64(), s[2].Value.Uint64()
	return free + objects - min(objects, live)
}

// memoryNeedsReturn: what can be given back is past the slack, and no
// return in the last memoryReturnGap.
func memoryNeedsReturn(free uint64, now, last time.Time) bool {
	return free > memorySlack && now.Sub(last) >= memoryReturnGap
}

// returnNow collects, returns the free heap to the system and trims the C
// allocator.
func returnNow() {
	debug.FreeOSMemory()
	trimCHeap()
}
