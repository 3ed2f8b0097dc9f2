package projections_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/crossrank/crossrank/events/jetstream/jstest"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/projections/history"
)

// BenchmarkVerify times Verify of a freshly rebuilt read model against the
// stream of a generated history (20k events; CROSSRANK_BENCH_EVENTS
// overrides the size). The history and the read model are made before the
// timer starts. Besides wall time it reports the process's CPU time per
// verification, which a busy machine disturbs less.
func BenchmarkVerify(b *testing.B) {
	n := 20_000
	if v, err := strconv.Atoi(os.Getenv("CROSSRANK_BENCH_EVENTS")); err == nil && v > 0 {
		n = v
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	env := jstest.Start(b)
	if err := history.Generate(ctx, env.Store, n, 1); err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "read.db")
	if _, err := projections.Rebuild(ctx, env.Store, path); err != nil {
		b.Fatal(err)
	}
	s := open(b, path)
	var events uint64
	b.ResetTimer()
	cpu := cpuTime()
	for range b.N {
		rep, err := projections.Verify(ctx, env.Store, s.DB())
		if err != nil {
			b.Fatal(err)
		}
		events += rep.Events
	}
	b.StopTimer()
	b.ReportMetric((cpuTime()-cpu).Seconds()/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
}
