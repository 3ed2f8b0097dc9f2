package domain

import (
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
	im := RankImpact(r, ed, p, "")
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
	im = RankImpact(r, ed, &Proposal{Entry: "n", Scores: map[string]events.ScoreChangeProposed{"a": {To: 10}, "b": {To: 10}}}, "y")
	if im.Changes[0].Before != 0 || im.Changes[0].After != 1 || im.Changes[1].After != 1 {
		t.Errorf("new entry impact = %+v", im.Changes)
	}
}
