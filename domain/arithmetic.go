package domain

import (
	"cmp"
	"slices"

	"github.com/crossrank/crossrank/events"
)

// Score bounds: scores are integers per criterion.
const (
	MinScore = 0
	MaxScore = 10
)

// Standing is one entry's place in a computed ranking. Total is Σ weight·score
// (0–1000 with weights summing to 100); pages show it divided by 100.
type Standing struct {
	Entry        string
	Category     string
	Total        int
	Rank         int // overall, 1-based
	CategoryRank int // within its category, 1-based
}

// Standings ranks the entries by weighted total, highest first; equal totals
// break by slug so every rank is unique and stable. The arithmetic is all
// integers: nothing hashed ever depends on floating point.
func Standings(entries map[string]*PublishedEntry, weights map[string]int) []Standing {
	out := make([]Standing, 0, len(entries))
	for slug, e := range entries {
		out = append(out, Standing{Entry: slug, Category: e.Category, Total: Total(e.Scores, weights)})
	}
	slices.SortFunc(out, func(a, b Standing) int {
		if c := cmp.Compare(b.Total, a.Total); c != 0 {
			return c
		}
		return cmp.Compare(a.Entry, b.Entry)
	})
	perCat := map[string]int{}
	for i := range out {
		out[i].Rank = i + 1
		perCat[out[i].Category]++
		out[i].CategoryRank = perCat[out[i].Category]
	}
	return out
}

// Total returns Σ weight·score over the criteria in weights.
func Total(scores, weights map[string]int) int {
	t := 0
	for c, w := range weights {
		t += w * scores[c]
	}
	return t
}

// Exclusion says why an entry does not meet a buyer's need.
type Exclusion struct {
	Filter string
	Option string
	Reason events.Text
}

// Meets checks an entry's attributes against the chosen needs (filter key →
// option value). It returns the reasons the entry is excluded, empty when it
// meets every need. Unknown filters or options are ignored.
func Meets(attrs map[string][]string, filters []events.Filter, needs map[string]string) []Exclusion {
	var out []Exclusion
	for _, f := range filters {
		want, ok := needs[f.Key]
		if !ok || want == "" {
			continue
		}
		i := slices.IndexFunc(f.Options, func(o events.FilterOption) bool { return o.Value == want })
		if i < 0 {
			continue
		}
		for _, req := range f.Options[i].Requires {
			if !slices.ContainsFunc(attrs[req.Attribute], func(t string) bool { return slices.Contains(req.AnyOf, t) }) {
				out = append(out, Exclusion{Filter: f.Key, Option: want, Reason: req.Reason})
			}
		}
	}
	return out
}
