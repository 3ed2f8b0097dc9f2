package domain_test

import (
	"reflect"
	"testing"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// weights of the test ranking: price 40, perf 35, support 25.
var testWeights = map[string]int{"price": 40, "perf": 35, "support": 25}

// sixEntries are scored so that the totals (worked out by hand below) hold
// a tie, an entry without scores and both categories.
//
//	acme  cloud   5·40 + 6·35 + 8·25 = 200 + 210 + 200 = 610
//	bolt  market  7·40 + 4·35 + 6·25 = 280 + 140 + 150 = 570
//	cora  cloud   9·40 + 3·35 + 5·25 = 360 + 105 + 125 = 590
//	dyna  market  6·40 + 6·35 + 6·25 = 240 + 210 + 150 = 600
//	echo  cloud   6·40 + 6·35 + 6·25                   = 600 (ties dyna; d < e)
//	fern  market  no scores                            =   0
func sixEntries() map[string]*domain.PublishedEntry {
	e := func(slug, cat string, price, perf, support int) *domain.PublishedEntry {
		return &domain.PublishedEntry{Slug: slug, Name: events.Text{En: slug}, Category: cat,
			Scores: map[string]int{"price": price, "perf": perf, "support": support}, Attributes: map[string][]string{}}
	}
	return map[string]*domain.PublishedEntry{
		"acme": e("acme", "cloud", 5, 6, 8),
		"bolt": e("bolt", "market", 7, 4, 6),
		"cora": e("cora", "cloud", 9, 3, 5),
		"dyna": e("dyna", "market", 6, 6, 6),
		"echo": e("echo", "cloud", 6, 6, 6),
		"fern": {Slug: "fern", Name: events.Text{En: "fern"}, Category: "market", Scores: map[string]int{}, Attributes: map[string][]string{}},
	}
}

func TestTotal(t *testing.T) {
	tests := []struct {
		name    string
		scores  map[string]int
		weights map[string]int
		want    int
	}{
		{"acme", map[string]int{"price": 5, "perf": 6, "support": 8}, testWeights, 610},
		{"all tens", map[string]int{"price": 10, "perf": 10, "support": 10}, testWeights, 1000},
		{"all zeros", map[string]int{"price": 0, "perf": 0, "support": 0}, testWeights, 0},
		{"missing scores count as 0", map[string]int{"perf": 10}, testWeights, 350},
		{"scores of unweighted criteria are ignored", map[string]int{"price": 10, "legacy": 10}, testWeights, 400},
		{"no scores", nil, testWeights, 0},
		{"no weights", map[string]int{"price": 10}, nil, 0},
		{"a zero weight", map[string]int{"price": 10, "perf": 10}, map[string]int{"price": 0, "perf": 100}, 1000},
	}
	for _, tt := range tests {
		if got := domain.Total(tt.scores, tt.weights); got != tt.want {
			t.Errorf("%s: Total = %d, want %d", tt.name, got, tt.want)
		}
	}
}

func TestStandings(t *testing.T) {
	got := domain.Standings(sixEntries(), testWeights)
	want := []domain.Standing{
		{Entry: "acme", Category: "cloud", Total: 610, Rank: 1, CategoryRank: 1},
		{Entry: "dyna", Category: "market", Total: 600, Rank: 2, CategoryRank: 1},
		{Entry: "echo", Category: "cloud", Total: 600, Rank: 3, CategoryRank: 2},
		{Entry: "cora", Category: "cloud", Total: 590, Rank: 4, CategoryRank: 3},
		{Entry: "bolt", Category: "market", Total: 570, Rank: 5, CategoryRank: 2},
		{Entry: "fern", Category: "market", Total: 0, Rank: 6, CategoryRank: 3},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Standings:\n got %+v\nwant %+v", got, want)
	}
}

// TestStandingsTiesBreakBySlug: equal totals rank by slug, whatever the map
// holds them as; all-equal entries rank alphabetically.
func TestStandingsTiesBreakBySlug(t *testing.T) {
	entries := map[string]*domain.PublishedEntry{}
	for _, s := range []string{"zeta", "alpha", "mu", "beta-2", "beta-10", "0day"} {
		entries[s] = &domain.PublishedEntry{Slug: s, Category: "cloud", Scores: map[string]int{"price": 7}}
	}
	for range 20 {
		var got []string
		for _, st := range domain.Standings(entries, testWeights) {
			got = append(got, st.Entry)
		}
		if want := []string{"0day", "alpha", "beta-10", "beta-2", "mu", "zeta"}; !reflect.DeepEqual(got, want) {
			t.Fatalf("order = %v, want %v", got, want)
		}
	}
}

func TestStandingsEmpty(t *testing.T) {
	if got := domain.Standings(nil, testWeights); len(got) != 0 {
		t.Errorf("Standings(nil) = %v, want none", got)
	}
}

// TestScenarioReorders: a scenario's weights rank the same entries
// differently (worked out by hand).
//
//	training: perf 70, price 20, support 10
//	  acme 420+100+80 = 600, dyna 600, echo 600, bolt 280+140+60 = 480, cora 210+180+50 = 440, fern 0
//	budget: price 100
//	  cora 900, bolt 700, dyna 600, echo 600, acme 500, fern 0
func TestScenarioReorders(t *testing.T) {
	tests := []struct {
		name    string
		weights map[string]int
		order   []string
		totals  []int
	}{
		{"overall", testWeights, []string{"acme", "dyna", "echo", "cora", "bolt", "fern"}, []int{610, 600, 600, 590, 570, 0}},
		{"training", map[string]int{"perf": 70, "price": 20, "support": 10},
			[]string{"acme", "dyna", "echo", "bolt", "cora", "fern"}, []int{600, 600, 600, 480, 440, 0}},
		{"budget", map[string]int{"price": 100, "perf": 0, "support": 0},
			[]string{"cora", "bolt", "dyna", "echo", "acme", "fern"}, []int{900, 700, 600, 600, 500, 0}},
	}
	for _, tt := range tests {
		var order []string
		var totals []int
		for _, st := range domain.Standings(sixEntries(), tt.weights) {
			order, totals = append(order, st.Entry), append(totals, st.Total)
		}
		if !reflect.DeepEqual(order, tt.order) || !reflect.DeepEqual(totals, tt.totals) {
			t.Errorf("%s: order %v totals %v, want %v %v", tt.name, order, totals, tt.order, tt.totals)
		}
	}
}

func TestMeets(t *testing.T) {
	noRoot := events.Text{En: "no root access"}
	notCN := events.Text{En: "no data centre in China"}
	notEU := events.Text{En: "no data centre in the EU"}
	noSpot := events.Text{En: "no interruptible instances"}
	filters := []events.Filter{
		{Key: "root-access", Options: []events.FilterOption{
			{Value: "yes", Requires: []events.Requirement{{Attribute: "root", AnyOf: []string{"yes"}, Reason: noRoot}}},
			{Value: "no"},
		}},
		{Key: "location", Options: []events.FilterOption{
			{Value: "cn", Requires: []events.Requirement{{Attribute: "region", AnyOf: []string{"cn-east", "cn-north", "cn-south"}, Reason: notCN}}},
			{Value: "eu", Requires: []events.Requirement{{Attribute: "region", AnyOf: []string{"eu-west"}, Reason: notEU}}},
		}},
		{Key: "interruptible", Options: []events.FilterOption{
			{Value: "spot-root", Requires: []events.Requirement{
				{Attribute: "billing", AnyOf: []string{"spot"}, Reason: noSpot},
				{Attribute: "root", AnyOf: []string{"yes"}, Reason: noRoot},
			}},
		}},
	}
	acme := map[string][]string{"root": {"yes"}, "region": {"cn-north", "cn-east"}}
	bolt := map[string][]string{"root": {"no"}, "region": {"eu-west"}}
	tests := []struct {
		name  string
		attrs map[string][]string
		needs map[string]string
		want  []domain.Exclusion
	}{
		{"no needs", bolt, nil, nil},
		{"met", acme, map[string]string{"root-access": "yes", "location": "cn"}, nil},
		{"one of several values is enough", bolt, map[string]string{"location": "eu"}, nil},
		{"an option without requirements", bolt, map[string]string{"root-access": "no"}, nil},
		{"root needed", bolt, map[string]string{"root-access": "yes"},
			[]domain.Exclusion{{Filter: "root-access", Option: "yes", Reason: noRoot}}},
		{"wrong region", acme, map[string]string{"location": "eu"},
			[]domain.Exclusion{{Filter: "location", Option: "eu", Reason: notEU}}},
		{"two needs unmet, in filter order", bolt, map[string]string{"location": "cn", "root-access": "yes"},
			[]domain.Exclusion{{Filter: "root-access", Option: "yes", Reason: noRoot}, {Filter: "location", Option: "cn", Reason: notCN}}},
		{"both requirements of one option unmet", bolt, map[string]string{"interruptible": "spot-root"},
			[]domain.Exclusion{{Filter: "interruptible", Option: "spot-root", Reason: noSpot}, {Filter: "interruptible", Option: "spot-root", Reason: noRoot}}},
		{"one requirement of two unmet", acme, map[string]string{"interruptible": "spot-root"},
			[]domain.Exclusion{{Filter: "interruptible", Option: "spot-root", Reason: noSpot}}},
		{"an entry without attributes", nil, map[string]string{"root-access": "yes"},
			[]domain.Exclusion{{Filter: "root-access", Option: "yes", Reason: noRoot}}},
		{"unknown filter ignored", bolt, map[string]string{"gpu": "h100"}, nil},
		{"unknown option ignored", bolt, map[string]string{"root-access": "maybe"}, nil},
		{"empty answer ignored", bolt, map[string]string{"root-access": ""}, nil},
	}
	for _, tt := range tests {
		if got := domain.Meets(tt.attrs, filters, tt.needs); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: Meets = %+v, want %+v", tt.name, got, tt.want)
		}
	}
}
