package server

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
)

func TestMemoryNeedsReturn(t *testing.T) {
	now := time.Date(2026, 12, 5, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name string
		free uint64
		last time.Time
		want bool
	}{
		{"little free heap", memorySlack, time.Time{}, false},
		{"much free heap, never returned", memorySlack + 1, time.Time{}, true},
		{"much free heap, returned a minute ago", 512 << 20, now.Add(-memoryReturnGap), true},
		{"much free heap, returned 59 s ago", 512 << 20, now.Add(-59 * time.Second), false},
	} {
		if got := memoryNeedsReturn(c.free, now, c.last); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// TestReturnMemoryGivesBackFreeHeap drops 256 MiB allocated after a
// collection (with the collector off meanwhile, so none runs between),
// checks they count as reclaimable, and that a return brings the free
// heap below the slack.
func TestReturnMemoryGivesBackFreeHeap(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	runtime.GC()
	var keep [][]byte
	for range 256 {
		b := make([]byte, 1<<20)
		b[0] = 1
		keep = append(keep, b)
	}
	runtime.KeepAlive(keep)
	keep = nil
	s := []metrics.Sample{{Name: "/memory/classes/heap/free:bytes"},
		{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	// At least most of it: what the runtime itself allocated since the
	// collection moves the figures by a MiB or so (255 under -race).
	if r := reclaimable(s); r < 192<<20 {
		t.Fatalf("256 MiB of garbage: %d MiB reclaimable, want at least 192", r>>20)
	}
	returnNow()
	metrics.Read(s)
	if f := s[0].Value.Uint64(); f > memorySlack {
		t.Errorf("after returning: %d MiB of free heap kept, want at most %d", f>>20, memorySlack>>20)
	}
}
