package history_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"testing"
	"time"

	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/events/jetstream/jstest"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/projections/history"
)

// TestGenerate: the generator writes the same events for the same seed, a
// history projections.Verify accepts, with every turn of the review workflow
// in it.
func TestGenerate(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	a, b := generated(t, 1000, 7), jstest.Start(t)
	if err := history.Generate(ctx, b.Store, 1000, 7); err != nil {
		t.Fatal(err)
	}
	evA, evB := replayAll(t, a.Store), replayAll(t, b.Store)
	if len(evA) < 1000 || len(evA) != len(evB) {
		t.Fatalf("%d and %d events, want the same number, at least 1000", len(evA), len(evB))
	}
	for i := range evA {
		if evA[i].ID != evB[i].ID || string(evA[i].Raw) != string(evB[i].Raw) || !evA[i].Time.Equal(evB[i].Time) {
			t.Fatalf("event %d differs between two runs with the same seed", i+1)
		}
	}
	rep, err := projections.Verify(ctx, a.Store, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Editions < 3 {
		t.Errorf("%d editions, want at least 3", rep.Editions)
	}
	types := map[string]int{}
	for _, ev := range evA {
		types[ev.StoredType]++ // as the generator wrote it: votes are v1, as the desk wrote them before the fold
	}
	for _, typ := range []string{
		"crossrank.ranking.defined.v1", "crossrank.ranking.scenarios_set.v1", "crossrank.entry.created.v1",
		"crossrank.proposal.opened.v1", "crossrank.proposal.evidence_added.v3", "crossrank.proposal.evidence_removed.v1",
		"crossrank.proposal.score_change_proposed.v2", "crossrank.proposal.attribute_change_proposed.v2",
		"crossrank.proposal.change_removed.v1", "crossrank.proposal.submitted.v1", "crossrank.proposal.revised.v1",
		"crossrank.proposal.vote_cast.v1", "crossrank.proposal.veto_dismissed.v1", "crossrank.proposal.cross_validated.v1",
		"crossrank.proposal.returned_to_review.v1", "crossrank.proposal.rejected.v1", "crossrank.proposal.withdrawn.v1",
		"crossrank.proposal.published.v1", "crossrank.edition.published.v1", "crossrank.user.registered.v1",
		"crossrank.user.token_issued.v1",
	} {
		if types[typ] == 0 {
			t.Errorf("no %s in the history", typ)
		}
	}
	t.Logf("%d events: %v", len(evA), types)
}

// TestGeneratePinned pins the history of seed 1 (the bench's default
// seed) to a digest of every event's sequence, id, type as stored, subject, time,
// actor, correlation, causation and body: a change to the generator that
// changes the events it writes fails here, and has to say so by updating
// the digest.
func TestGeneratePinned(t *testing.T) {
	t.Parallel()
	evs := replayAll(t, generated(t, 1000, 1).Store)
	h := sha256.New()
	for _, ev := range evs {
		fmt.Fprintf(h, "%d %s %s %s %s %s %s %s %d\n", ev.Sequence, ev.ID, ev.StoredType, ev.Subject,
			ev.Time.UTC().Format(time.RFC3339Nano), ev.Actor, ev.CorrelationID, ev.CausationID, len(ev.Raw))
		h.Write(ev.Raw)
	}
	// Claims and rationales are Text since issue 43 (evidence_added.v3,
	// score_ and attribute_change_proposed.v2), which moved the digest.
	const want = "4433f9ab569d14c3fb0557e9a1ac2b2d1fdd3498724cbbd5d7cd6e1c08c61e10"
	if got := hex.EncodeToString(h.Sum(nil)); len(evs) != 1070 || got != want {
		t.Errorf("seed 1: %d events, digest %s; want 1070, %s", len(evs), got, want)
	}
}

// generated starts an embedded store holding the history of at least n
// events that seed gives.
func generated(t testing.TB, n int, seed int64) *jstest.Env {
	t.Helper()
	env := jstest.Start(t)
	if err := history.Generate(testContext(t), env.Store, n, seed); err != nil {
		t.Fatal(err)
	}
	return env
}

// replayAll returns every event of the store, in order.
func replayAll(t testing.TB, store events.Store) []events.Event {
	t.Helper()
	var evs []events.Event
	if err := store.Replay(testContext(t), 1, func(e events.Event) error {
		evs = append(evs, e)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return evs
}

// testContext bounds what a test waits for the store.
func testContext(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	t.Cleanup(cancel)
	return ctx
}
