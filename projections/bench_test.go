package projections_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/crossrank/crossrank/events/jetstream/jstest"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/projections/history"
	"github.com/nats-io/nats.go"
)

// BenchmarkRebuild100k compares a rebuild of the read models with the raw
// speed of reading the stream. The same 100k-event history, generated
// before the timer starts, is read through an ordered consumer without
// decoding (RawReplay) and rebuilt into a fresh file (Rebuild). Besides the
// two rates and their ratio it reports the CPU time per event of each
// (the whole process: the embedded server serves both), which a busy
// machine disturbs less than wall time, and the peak resident memory.
// CROSSRANK_BENCH_EVENTS overrides the size for a quick profile.
func BenchmarkRebuild100k(b *testing.B) {
	n := 100_000
	if v, err := strconv.Atoi(os.Getenv("CROSSRANK_BENCH_EVENTS")); err == nil && v > 0 {
		n = v
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	env := jstest.Start(b)
	start := time.Now()
	if err := history.Generate(ctx, env.Store, n, 1); err != nil {
		b.Fatal(err)
	}
	last, err := env.Store.LastSequence(ctx)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("generated %d events in %v", last, time.Since(start).Round(time.Millisecond))
	dir := b.TempDir()
	var raw, rebuild, rawCPU, rebuildCPU time.Duration
	var rss int64
	b.ResetTimer()
	for i := range b.N {
		// Time the raw read on either side of the rebuild and keep the
		// faster: the ratio is not flattered by a slow reference.
		r1, c1 := rawReplay(b, ctx, env, last)
		path := filepath.Join(dir, fmt.Sprintf("rebuild-%d.db", i))
		stop := sampleRSS(&rss)
		cpu := cpuTime()
		st, err := projections.Rebuild(ctx, env.Store, path)
		rebuildCPU += cpuTime() - cpu
		stop()
		if err != nil || st.Events != last {
			b.Fatalf("rebuild: %+v, %v; want %d events", st, err, last)
		}
		rebuild += st.Duration
		r2, c2 := rawReplay(b, ctx, env, last)
		raw, rawCPU = raw+min(r1, r2), rawCPU+min(c1, c2)
	}
	b.StopTimer()
	events := float64(last) * float64(b.N)
	rawRate, rebuildRate := events/raw.Seconds(), events/rebuild.Seconds()
	b.ReportMetric(rawRate, "raw-events/s")
	b.ReportMetric(rebuildRate, "rebuild-events/s")
	b.ReportMetric(rebuildRate/rawRate, "rebuild/raw")
	b.ReportMetric(float64(rawCPU.Microseconds())/events, "raw-cpu-µs/event")
	b.ReportMetric(float64(rebuildCPU.Microseconds())/events, "rebuild-cpu-µs/event")
	if rss > 0 {
		b.ReportMetric(float64(rss)/(1<<20), "rebuild-peak-RSS-MB")
	}
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		b.ReportMetric(float64(ru.Maxrss)/1024, "process-peak-RSS-MB") // Linux reports KiB
	}
}

// rawReplay reads the whole stream without decoding and returns how long
// it took and the CPU time the process spent meanwhile.
func rawReplay(b *testing.B, ctx context.Context, env *jstest.Env, last uint64) (time.Duration, time.Duration) {
	start, cpu := time.Now(), cpuTime()
	var got uint64
	err := env.Store.RawReplay(ctx, 1, func(uint64, string, nats.Header, []byte) error {
		got++
		return nil
	})
	if err != nil || got != last {
		b.Fatalf("raw replay: %d events, %v; want %d", got, err, last)
	}
	return time.Since(start), cpuTime() - cpu
}

// cpuTime returns the CPU time (user and system) the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// sampleRSS records the largest resident set size seen until stop is
// called (Linux: /proc/self/statm; elsewhere it records nothing).
func sampleRSS(peak *int64) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for {
			if b, err := os.ReadFile("/proc/self/statm"); err == nil {
				if f := strings.Fields(string(b)); len(f) > 1 {
					if pages, err := strconv.ParseInt(f[1], 10, 64); err == nil {
						*peak = max(*peak, pages*int64(os.Getpagesize()))
					}
				}
			}
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	})
	return func() { close(done); wg.Wait() }
}
