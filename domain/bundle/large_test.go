package bundle_test

import (
	"context"
	"crypto/ed25519"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain/bundle"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events/jetstream/jstest"
	"github.com/crossrank/crossrank/projections/history"
)

// TestLargeEditionBundle writes and verifies the bundle of a first edition
// of 10,000 entries (published in parts) through a file, as the command
// line does, and logs the largest heap each took: the bundle is streamed,
// not built in memory. No time or size is asserted. Three criteria, not
// ten: the bundle's paths are the same (the parts, an evidence item per
// entry), the dataset costs half as much to write, and
// projections.TestLargeFirstEdition publishes the full 10,000 × 10.
func TestLargeEditionBundle(t *testing.T) {
	if testing.Short() {
		t.Skip("80,000 events: not with -short")
	}
	entries, criteria := 10_000, 3
	if raceEnabled {
		entries = 1_000 // the same paths, in parts; full size runs without -race
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute) // a loaded machine: no deadline of ours decides
	defer cancel()
	env := jstest.Start(t)
	start := time.Now()
	slug, ids, err := history.LargeRanking(ctx, env.Store, history.ReadyEdition{Entries: entries, Criteria: criteria, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	publishAll(t, handler.New(env.Store, nil), slug, ids)
	t.Logf("%d entries published in %s", entries, time.Since(start).Round(time.Millisecond))

	key := newKey(3)
	path := filepath.Join(t.TempDir(), bundle.FileName(slug, 1))
	peak := heapPeak(t)
	start = time.Now()
	b, err := bundle.NewProducer(env.Store, key).Prepare(ctx, slug, 1)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.WriteTo(ctx, f); err != nil {
		t.Fatal(err)
	}
	size, _ := f.Seek(0, io.SeekEnd)
	b = nil
	t.Logf("bundle of %d bytes written in %s; peak heap %s", size, time.Since(start).Round(time.Millisecond), peak())

	peak = heapPeak(t)
	start = time.Now()
	rep, err := bundle.Verify(f, size, bundle.Options{Key: key.Public().(ed25519.PublicKey)})
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("verified in %s; peak heap %s", time.Since(start).Round(time.Millisecond), peak())
	for _, c := range rep.Checks {
		t.Logf("%s: %s", c.Name, c.Detail)
	}
	if got := detail(rep, bundle.CheckEvidence); got == "" {
		t.Error("no evidence check reported")
	}
}

// heapPeak samples the heap until the returned function is called, which
// says the largest heap in use and the largest found live by a collection,
// and the heap live before (the embedded nats-server's is in it).
func heapPeak(t *testing.T) func() string {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	before := ms.HeapAlloc
	var inUse, live uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		var ms runtime.MemStats
		s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			runtime.ReadMemStats(&ms)
			metrics.Read(s)
			inUse, live = max(inUse, ms.HeapInuse), max(live, s[0].Value.Uint64())
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	})
	var once sync.Once
	stop := func() string {
		once.Do(func() { close(done); wg.Wait() })
		return mib(inUse) + " in use, " + mib(live) + " live (" + mib(before) + " live before)"
	}
	t.Cleanup(func() { stop() })
	return stop
}

func mib(b uint64) string {
	return strconv.FormatFloat(float64(b)/(1<<20), 'f', 1, 64) + " MiB"
}
