package projections_test

import (
	"testing"

	"github.com/crossrank/crossrank/events/jetstream/jstest"
	"github.com/crossrank/crossrank/projections"
)

// TestGenerateHistory: the generator writes the same events for the same
// seed, a history Verify accepts, with every turn of the review workflow in
// it.
func TestGenerateHistory(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	a, b := synthetic(t, 1000), jstest.Start(t)
	if err := projections.GenerateHistory(ctx, b.Store, 1000, 7); err != nil {
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
		types[ev.Type]++
	}
	for _, typ := range []string{
		"crossrank.ranking.defined.v1", "crossrank.ranking.scenarios_set.v1", "crossrank.entry.created.v1",
		"crossrank.proposal.opened.v1", "crossrank.proposal.evidence_added.v2", "crossrank.proposal.evidence_removed.v1",
		"crossrank.proposal.score_change_proposed.v1", "crossrank.proposal.attribute_change_proposed.v1",
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
