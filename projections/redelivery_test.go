package projections_test

import (
	"errors"
	"path/filepath"
	"slices"
	"testing"

	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/projections"
)

// TestRedeliveryChangesNothing: events at or below the checkpoint are
// skipped however they come back (the same batch again, an older batch, an
// overlapping one, duplicates within a batch), and a batch that skips or
// reorders a sequence is refused whole with ErrGap.
func TestRedeliveryChangesNothing(t *testing.T) {
	t.Parallel()
	env := synthetic(t, 400)
	evs := replayAll(t, env.Store)
	ctx := testContext(t)
	s := open(t, filepath.Join(t.TempDir(), "read.db"))
	// reference returns the dump of models that applied evs[:n] once, in order.
	reference := func(n int) string {
		t.Helper()
		r := open(t, filepath.Join(t.TempDir(), "reference.db"))
		applyInBatches(t, r, evs[:n], n)
		return dump(t, r)
	}
	unchanged := func(what, want string, seq uint64) {
		t.Helper()
		if got := dump(t, s); got != want {
			t.Fatalf("%s changed the models: %s", what, diff(want, got))
		}
		if got, _ := s.Checkpoint(); got != seq {
			t.Fatalf("%s: checkpoint %d, want %d", what, got, seq)
		}
	}

	applyInBatches(t, s, evs[:200], 50)
	at200 := dump(t, s)
	if at200 != reference(200) {
		t.Fatal("applying in batches of 50 differs from one batch")
	}
	for _, c := range []struct {
		name  string
		batch []events.Event
	}{
		{"the same batch again", evs[150:200]},
		{"everything so far again", evs[:200]},
		{"an older batch", evs[20:60]},
		{"one old event", evs[199:200]},
	} {
		if err := s.Apply(ctx, c.batch); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		unchanged(c.name, at200, 200)
	}

	// An overlapping batch applies only what is new; duplicates within a
	// batch apply once.
	if err := s.Apply(ctx, evs[150:250]); err != nil {
		t.Fatal(err)
	}
	dup := []events.Event{evs[250], evs[250], evs[251], evs[250], evs[251]}
	if err := s.Apply(ctx, dup); err != nil {
		t.Fatal(err)
	}
	at252 := dump(t, s)
	if at252 != reference(252) {
		t.Fatal("an overlapping batch and duplicates within a batch did not apply each event exactly once")
	}

	// Out of order, a gap, and a good start followed by a gap: refused
	// whole, nothing kept.
	for _, c := range []struct {
		name  string
		batch []events.Event
	}{
		{"sequence 254 before 253", []events.Event{evs[253], evs[252]}},
		{"a gap after the checkpoint", []events.Event{evs[253]}},
		{"253 and 254, then 256", []events.Event{evs[252], evs[253], evs[255]}},
		{"a gap after redelivered events", slices.Concat(evs[240:253], evs[254:256])},
	} {
		err := s.Apply(ctx, c.batch)
		if !errors.Is(err, projections.ErrGap) {
			t.Fatalf("%s: %v, want ErrGap", c.name, err)
		}
		unchanged(c.name, at252, 252)
	}

	// The stream still completes, exactly once.
	applyInBatches(t, s, evs[252:], 100)
	if got, want := dump(t, s), rebuilt(t, env.Store); got != want {
		t.Fatalf("after redeliveries the models differ from a clean rebuild: %s", diff(want, got))
	}
	mustCount(t, s, len(evs), "SELECT count(*) FROM audit")
}
