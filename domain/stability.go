package domain

import (
	"cmp"
	"slices"
)

// How solid is a rank? Leaderboards publish confidence intervals; an
// editorial ranking can say exactly what would have to change for two
// entries to swap. Stability asks two questions of an edition's snapshot,
// in the ranking's own integer arithmetic: which overall ranks change if
// any one published score is removed (every published score is backed by
// evidence, so this is "if one piece of evidence fell"), and which change
// if any one criterion's weight moves by 5 points, the others renormalised
// so the weights still sum to 100. It is a function of the snapshot alone,
// so whoever holds an edition's hashed snapshot can recompute it.

// StabilityDelta is how far a criterion's weight moves in the weight test.
const StabilityDelta = 5

// Swap is one condition under which an entry changes places with another.
type Swap struct {
	With string `json:"with"` // the other entry
	// The condition: Kind "score" — Entry's score for Criterion removed;
	// Kind "weight" — Criterion's weight moved by Delta (±5).
	Kind      string `json:"kind"`
	Entry     string `json:"entry,omitempty"`
	Criterion string `json:"criterion"`
	Delta     int    `json:"delta,omitempty"`
}

// Stability returns, for every entry of the snapshot, the entries it could
// swap with and, for each kind of change (a removed score, a moved weight),
// the first condition under which it would (in a fixed order: scores by
// entry and criterion, weights by criterion, +5 before −5), sorted by the
// other entry, scores first; an entry with none is stable.
func Stability(s Snapshot) map[string][]Swap {
	out := make(map[string][]Swap, len(s.Entries))
	for _, e := range s.Entries {
		out[e.Slug] = nil
	}
	weights := make(map[string]int, len(s.Weights))
	for _, w := range s.Weights {
		weights[w.Name] = w.Value
	}
	seen := map[[3]string]bool{}
	record := func(a, b string, sw Swap) {
		for _, pair := range [][3]string{{a, b, sw.Kind}, {b, a, sw.Kind}} {
			if seen[pair] {
				continue
			}
			seen[pair] = true
			x := sw
			x.With = pair[1]
			out[pair[0]] = append(out[pair[0]], x)
		}
	}
	// One score removed: only that entry's total drops, so it swaps with
	// the entries it falls behind, which were below it before.
	for i, e := range s.Entries {
		for _, sc := range e.Scores {
			drop := weights[sc.Name] * sc.Value
			if drop == 0 {
				continue
			}
			t := e.Total - drop
			for _, o := range s.Entries[i+1:] {
				if o.Total > t || o.Total == t && o.Slug < e.Slug {
					record(e.Slug, o.Slug, Swap{Kind: "score", Entry: e.Slug, Criterion: sc.Name})
				} else if o.Total < t {
					break // the rest are lower still
				}
			}
		}
	}
	// One weight moved: every total changes, each by at most
	// Σ|Δweight|·MaxScore, so two entries can only swap when their totals
	// are within twice that: only those pairs are compared.
	names := make([]string, 0, len(s.Weights))
	for _, w := range s.Weights {
		names = append(names, w.Name)
	}
	const window = 2 * 2 * StabilityDelta * MaxScore
	for _, c := range names {
		for _, d := range []int{StabilityDelta, -StabilityDelta} {
			w, ok := moveWeight(weights, names, c, d)
			if !ok {
				continue
			}
			totals := make([]int, len(s.Entries))
			for k, e := range s.Entries {
				for _, sc := range e.Scores {
					totals[k] += w[sc.Name] * sc.Value
				}
			}
			for i, a := range s.Entries {
				for j := i + 1; j < len(s.Entries) && a.Total-s.Entries[j].Total <= window; j++ {
					b := s.Entries[j]
					if totals[j] > totals[i] || totals[j] == totals[i] && b.Slug < a.Slug {
						record(a.Slug, b.Slug, Swap{Kind: "weight", Criterion: c, Delta: d})
					}
				}
			}
		}
	}
	for slug := range out {
		slices.SortFunc(out[slug], func(a, b Swap) int {
			return cmp.Or(cmp.Compare(a.With, b.With), cmp.Compare(a.Kind, b.Kind)) // "score" before "weight"
		})
	}
	return out
}

// moveWeight moves criterion c's weight by d and renormalises the others
// to keep the sum: they give up (or take) -d in proportion to their
// weights, largest remainders first (ties by name). It reports false when
// the move is impossible: c's weight would leave 0–100, or the others
// have nothing to give or take from.
func moveWeight(weights map[string]int, names []string, c string, d int) (map[string]int, bool) {
	nw := weights[c] + d
	rest := 0
	for _, n := range names {
		if n != c {
			rest += weights[n]
		}
	}
	if nw < 0 || nw > 100 || rest == 0 || rest-d < 0 {
		return nil, false
	}
	out := map[string]int{c: nw}
	need := rest - d // what the others must sum to
	type rem struct {
		name string
		frac int
	}
	var rems []rem
	sum := 0
	for _, n := range names {
		if n == c {
			continue
		}
		q := weights[n] * need
		out[n] = q / rest
		sum += out[n]
		if weights[n] > 0 {
			rems = append(rems, rem{n, q % rest})
		}
	}
	slices.SortFunc(rems, func(a, b rem) int { return cmp.Or(cmp.Compare(b.frac, a.frac), cmp.Compare(a.name, b.name)) })
	for i := 0; sum < need && len(rems) > 0; i++ {
		out[rems[i%len(rems)].name]++
		sum++
	}
	return out, true
}
