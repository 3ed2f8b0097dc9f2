package projections_test

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/projections"
)

// TestStandingDecodedOncePerEdition: every view of a ranking's edition
// (each scenario and need is a page of its own) reads the lists the edition
// published, decoded from the tables once and shared; a new edition is
// read afresh, and what Standing answers is what a store that never
// answered before answers.
func TestStandingDecodedOncePerEdition(t *testing.T) {
	_, _, env := seededDesk(t)
	evs := replayAll(t, env.Store)
	last := -1
	for i, ev := range evs {
		if d, ok := ev.Data.(*events.EditionPublished); ok && d.Ranking == demo.RankingSlug {
			last = i
		}
	}
	if last < 1 {
		t.Fatal("the demo publishes no edition: the test's premise is gone")
	}
	ps := open(t, filepath.Join(t.TempDir(), "read.db"))
	applyInBatches(t, ps, evs[:last], 500)
	standing := func(s *projections.Store, scenario string) projections.StandingView {
		t.Helper()
		v, err := s.Standing(testContext(t), demo.RankingSlug, scenario, nil)
		if err != nil {
			t.Fatalf("Standing: %v", err)
		}
		return v
	}
	scores := func(v projections.StandingView) map[string]uintptr {
		out := map[string]uintptr{}
		for _, r := range v.Rows {
			out[r.Slug] = reflect.ValueOf(r.Scores).Pointer()
		}
		return out
	}
	before := standing(ps, "")
	applyInBatches(t, ps, evs[last:], 500)
	after := standing(ps, "")
	if after.Edition != before.Edition+1 || len(after.Rows) == 0 {
		t.Fatalf("edition %d with %d rows after the last one was projected, want edition %d with rows",
			after.Edition, len(after.Rows), before.Edition+1)
	}
	r, _, err := ps.Definition(testContext(t), demo.RankingSlug)
	if err != nil || len(r.Scenarios) == 0 {
		t.Fatalf("the demo ranking has no scenario (%v): the test's premise is gone", err)
	}
	if other := standing(ps, r.Scenarios[0].Slug); !reflect.DeepEqual(scores(other), scores(after)) {
		t.Error("a second view of one edition decoded its lists again")
	}
	fresh := open(t, filepath.Join(t.TempDir(), "fresh.db"))
	applyInBatches(t, fresh, evs, 500)
	if want := standing(fresh, ""); !reflect.DeepEqual(after, want) {
		t.Errorf("after a new edition Standing answers\n%+v\nwant what a fresh store answers\n%+v", after.Rows, want.Rows)
	}
}
