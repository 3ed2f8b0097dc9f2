package domain

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/crossrank/crossrank/events"
)

func TestRankImpactMovesTheEntry(t *testing.T) {
	r := &Ranking{Slug: "r", Criteria: []events.Criterion{{Slug: "a", Weight: 60}, {Slug: "b", Weight: 40}},
		Categories: []events.Category{{Slug: "x", Name: events.Text{Zh: "甲", En: "X"}}, {Slug: "y"}},
		Scenarios:  []events.Scenario{{Slug: "s", Weights: map[string]int{"a": 0, "b": 100}}}}
	ed := &Edition{Entries: map[string]*PublishedEntry{
		"p": {Slug: "p", Category: "x", Scores: map[string]int{"a": 9, "b": 1}}, // 580, scenario 100
		"q": {Slug: "q", Category: "x", Scores: map[string]int{"a": 5, "b": 5}}, // 500, scenario 500
		"z": {Slug: "z", Category: "y", Scores: map[string]int{"a": 2, "b": 2}}, // 200, scenario 200
	}}
	p := &Proposal{Entry: "z", Scores: map[string]events.ScoreChangeProposed{"a": {Criterion: "a", To: 10}}}
	// z: 60·10+40·2 = 680 overall (#3 → #1), category y stays #1, scenario s: b=2 → 200, stays #2.
	im := RankImpact(r, ed, p, "", nil)
	want := []RankChange{
		{Scope: "overall", Before: 3, After: 1},
		{Scope: "category", Before: 1, After: 1},
		{Scope: "scenario:s", Before: 2, After: 2},
	}
	if im.BeforeTotal != 200 || im.AfterTotal != 680 || len(im.Changes) != len(want) {
		t.Fatalf("impact = %+v", im)
	}
	for i, w := range want {
		got := im.Changes[i]
		if got.Scope != w.Scope || got.Before != w.Before || got.After != w.After {
			t.Errorf("change %d = %+v, want %+v", i, got, w)
		}
	}
	// The published state is untouched by the preview.
	if ed.Entries["z"].Scores["a"] != 2 {
		t.Error("RankImpact changed the published edition")
	}
	// A new entry counts from no rank.
	im = RankImpact(r, ed, &Proposal{Entry: "n", Scores: map[string]events.ScoreChangeProposed{"a": {To: 10}, "b": {To: 10}}}, "y", nil)
	if im.Changes[0].Before != 0 || im.Changes[0].After != 1 || im.Changes[1].After != 1 {
		t.Errorf("new entry impact = %+v", im.Changes)
	}
}

// TestRankImpactAgreesWithRankingAfresh checks the indexed preview against
// the plain computation — clone the edition, change the entry, rank every
// scope again — on random editions full of ties (scores 0–3), for entries
// moving up, down, across ties and new, with one memo reused throughout.
func TestRankImpactAgreesWithRankingAfresh(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 42))
	r := &Ranking{Slug: "r", Criteria: []events.Criterion{{Slug: "a", Weight: 50}, {Slug: "b", Weight: 30}, {Slug: "c", Weight: 20}},
		Categories: []events.Category{{Slug: "x"}, {Slug: "y"}, {Slug: "w"}},
		Scenarios:  []events.Scenario{{Slug: "s", Weights: map[string]int{"b": 100}}, {Slug: "t", Weights: map[string]int{"a": 50, "c": 50}}}}
	memo := &StandingMemo{}
	for round := range 20 {
		ed := &Edition{Ranking: "r", Seq: uint64(round), Entries: map[string]*PublishedEntry{}}
		for i := range 60 {
			slug := fmt.Sprintf("e%02d", i)
			ed.Entries[slug] = &PublishedEntry{Slug: slug, Category: []string{"x", "y", "w"}[rng.IntN(3)],
				Scores: map[string]int{"a": rng.IntN(4), "b": rng.IntN(4), "c": rng.IntN(4)}}
		}
		for range 40 {
			entry := fmt.Sprintf("e%02d", rng.IntN(70)) // some new
			p := &Proposal{Entry: entry, Scores: map[string]events.ScoreChangeProposed{}}
			for _, c := range []string{"a", "b", "c"} {
				if rng.IntN(2) == 0 {
					p.Scores[c] = events.ScoreChangeProposed{Criterion: c, To: rng.IntN(4)}
				}
			}
			got := RankImpact(r, ed, p, "y", memo)
			want := rankImpactAfresh(r, ed, p, "y")
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("round %d, %s %v:\n got %+v\nwant %+v", round, entry, p.Scores, got, want)
			}
		}
	}
}

// rankImpactAfresh is RankImpact as it was before the index: a clone with
// the change applied, every scope ranked in full.
func rankImpactAfresh(r *Ranking, ed *Edition, p *Proposal, newCategory string) Impact {
	after := map[string]*PublishedEntry{}
	for s, e := range ed.Entries {
		after[s] = e
	}
	pe := &PublishedEntry{Slug: p.Entry, Category: newCategory, Scores: map[string]int{}}
	if old := ed.Entries[p.Entry]; old != nil {
		pe.Category = old.Category
		for c, v := range old.Scores {
			pe.Scores[c] = v
		}
	}
	for c, ch := range p.Scores {
		pe.Scores[c] = ch.To
	}
	after[p.Entry] = pe
	find := func(entries map[string]*PublishedEntry, w map[string]int) Standing {
		for _, st := range Standings(entries, w) {
			if st.Entry == p.Entry {
				return st
			}
		}
		return Standing{}
	}
	b, a := find(ed.Entries, r.Weights()), find(after, r.Weights())
	im := Impact{Entry: p.Entry, BeforeTotal: b.Total, AfterTotal: a.Total}
	im.Changes = append(im.Changes, RankChange{Scope: "overall", Before: b.Rank, After: a.Rank},
		RankChange{Scope: "category", Before: b.CategoryRank, After: a.CategoryRank})
	for _, sc := range r.Scenarios {
		im.Changes = append(im.Changes, RankChange{Scope: "scenario:" + sc.Slug,
			Before: find(ed.Entries, sc.Weights).Rank, After: find(after, sc.Weights).Rank})
	}
	return im
}
