package projections_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/events/jetstream/jstest"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/projections/history"
)

// fakeHash stands in for argon2id: the domain only checks the PHC prefix.
func fakeHash(string) (string, error) { return "$argon2id$v=19$m=8,t=1,p=1$c2FsdA$aGFzaA", nil }

// testContext bounds what a test waits for the store and the models.
func testContext(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// open opens the read models at path and closes them at the end of the test.
func open(t testing.TB, path string) *projections.Store {
	t.Helper()
	s, err := projections.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// dump returns projections.Dump of the models: equal dumps, equal contents.
func dump(t testing.TB, s *projections.Store) string {
	t.Helper()
	d, err := projections.Dump(context.Background(), s.DB())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// replayAll returns every event of the stream, in order.
func replayAll(t testing.TB, src projections.Replayer) []events.Event {
	t.Helper()
	var evs []events.Event
	if err := src.Replay(testContext(t), 1, func(e events.Event) error {
		evs = append(evs, e)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return evs
}

// applyInBatches applies evs to s, size events per transaction.
func applyInBatches(t testing.TB, s *projections.Store, evs []events.Event, size int) {
	t.Helper()
	for i := 0; i < len(evs); i += size {
		if err := s.Apply(testContext(t), evs[i:min(i+size, len(evs))]); err != nil {
			t.Fatalf("apply events %d–%d: %v", evs[i].Sequence, evs[min(i+size, len(evs))-1].Sequence, err)
		}
	}
}

// rebuilt returns the dump of a clean rebuild of the stream in a new file.
func rebuilt(t testing.TB, src projections.Replayer) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "rebuilt.db")
	if _, err := projections.Rebuild(testContext(t), src, path); err != nil {
		t.Fatalf("rebuild: %v", err)
	}
	return dump(t, open(t, path))
}

// synthetic starts an embedded store holding a synthetic history of at
// least n events (seed 7: the same history for every test of a size).
func synthetic(t testing.TB, n int) *jstest.Env {
	t.Helper()
	env := jstest.Start(t)
	if err := history.Generate(testContext(t), env.Store, n, 7); err != nil {
		t.Fatal(err)
	}
	return env
}

// diff describes the first difference between two dumps.
func diff(a, b string) string {
	line := 1
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			from, to := max(0, i-200), i+200
			return fmt.Sprintf("line %d:\n--- %s\n+++ %s", line, a[from:min(len(a), to)], b[from:min(len(b), to)])
		}
		if a[i] == '\n' {
			line++
		}
	}
	return fmt.Sprintf("one dump is a prefix of the other (%d vs %d bytes)", len(a), len(b))
}
