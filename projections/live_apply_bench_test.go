package projections_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/events/jetstream/jstest"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/projections/history"
)

// BenchmarkLiveApply projects a generated 3,000-event history into a new
// file as the live projection does, committing every 1, 8 or 100 events:
// one command at a time, a burst, and a backlog. It reports the cost of
// an event; the events are read from the stream before the timer starts.
func BenchmarkLiveApply(b *testing.B) {
	ctx := context.Background()
	env := jstest.Start(b)
	if err := history.Generate(ctx, env.Store, 3000, 1); err != nil {
		b.Fatal(err)
	}
	var evs []events.Event
	if err := env.Store.Replay(ctx, 1, func(e events.Event) error { evs = append(evs, e); return nil }); err != nil {
		b.Fatal(err)
	}
	for _, per := range []int{1, 8, 100} {
		b.Run(fmt.Sprintf("commit=%d", per), func(b *testing.B) {
			dir := b.TempDir()
			for i := range b.N {
				s, err := projections.Open(filepath.Join(dir, fmt.Sprint(i, ".db")))
				if err != nil {
					b.Fatal(err)
				}
				for j := 0; j < len(evs); j += per {
					if err := s.Apply(ctx, evs[j:min(j+per, len(evs))]); err != nil {
						b.Fatal(err)
					}
				}
				if err := s.Close(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(evs)), "µs/event")
		})
	}
}
