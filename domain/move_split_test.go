package domain_test

import (
	"reflect"
	"testing"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// TestSplitMove: between two editions core rose from 4th to 1st: its own
// price score (+2 places), bolt's better perf score (−1) and the new
// weights with uptime retired (+2), which add up to the whole move; the
// score change and each weight change that moved its total are listed
// with what they did to it.
func TestSplitMove(t *testing.T) {
	scores := func(price, perf, uptime int) map[string]int {
		return map[string]int{"price": price, "perf": perf, "uptime": uptime}
	}
	r1 := &domain.Ranking{Slug: "gpu", Criteria: []events.Criterion{{Slug: "price", Weight: 40}, {Slug: "perf", Weight: 40}, {Slug: "uptime", Weight: 20}}}
	ed1 := &domain.Edition{Number: 3, Entries: map[string]*domain.PublishedEntry{
		"acme": {Slug: "acme", Scores: scores(8, 8, 10)}, // 840
		"bolt": {Slug: "bolt", Scores: scores(7, 7, 5)},  // 660
		"core": {Slug: "core", Scores: scores(6, 6, 9)},  // 660, after bolt by slug
		"dash": {Slug: "dash", Scores: scores(5, 9, 6)},  // 680
	}}
	r2 := &domain.Ranking{Slug: "gpu", Criteria: []events.Criterion{{Slug: "price", Weight: 70}, {Slug: "perf", Weight: 30}}}
	ed2 := &domain.Edition{Number: 7, Entries: map[string]*domain.PublishedEntry{
		"acme": {Slug: "acme", Scores: scores(8, 8, 10)}, // 800
		"bolt": {Slug: "bolt", Scores: scores(7, 10, 5)}, // 790
		"core": {Slug: "core", Scores: scores(9, 6, 9)},  // 810
		"dash": {Slug: "dash", Scores: scores(5, 9, 6)},  // 620
	}}
	got, ok := domain.SplitMove(domain.BuildSnapshot(r1, ed1), domain.BuildSnapshot(r2, ed2), "core")
	if !ok {
		t.Fatal("core is in both editions")
	}
	six, nine := 6, 9
	want := domain.MoveSplit{From: 3, To: 7, RankFrom: 4, RankTo: 1, TotalFrom: 660, TotalTo: 810,
		// own price 9 at the old weights: 780, behind acme only;
		// bolt's perf 10 at the old weights: 780, ahead of core by slug.
		RankOwn: 2, RankOthers: 3, TotalOwn: 780, TotalOthers: 780,
		Scores: []domain.ScoreMove{{Criterion: "price", From: &six, To: &nine, Effect: 120}},
		Methodology: []domain.WeightMove{
			{Criterion: "perf", From: 40, To: 30, Effect: -60},
			{Criterion: "price", From: 40, To: 70, Effect: 270},
			{Criterion: "uptime", From: 20, To: 0, Effect: -180},
		}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("SplitMove =\n%+v\nwant\n%+v", got, want)
	}
	if own, others, method := got.Parts(); own != 2 || others != -1 || method != 2 || own+others+method != got.RankFrom-got.RankTo {
		t.Errorf("parts %d, %d, %d; want +2, −1, +2", own, others, method)
	}

	// An entry missing from either edition has no split.
	delete(ed1.Entries, "dash")
	if _, ok := domain.SplitMove(domain.BuildSnapshot(r1, ed1), domain.BuildSnapshot(r2, ed2), "dash"); ok {
		t.Error("dash, new in edition 7, has a split")
	}
}
