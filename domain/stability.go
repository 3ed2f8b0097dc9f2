package domain

import (
	"cmp"
	"slices"
	"sort"
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

// StabilityNearest is how many of the entries an entry could change places
// with are listed with their conditions: the nearest in published rank.
const StabilityNearest = 3

// EntryStability is how solid one entry's overall rank is: how many other
// entries it could change places with, and the conditions for the nearest
// StabilityNearest of them; Others == 0 means stable.
type EntryStability struct {
	Others int `json:"others"`
	// Swaps lists, for each of the nearest entries it could change places
	// with (nearest by published rank; of two as near, the higher ranked
	// first), the first condition of each kind under which it would
	// (scores by the removed entry's criteria in name order, weights by
	// criterion, +5 before −5): a removed score first, then a moved weight.
	Swaps []Swap `json:"swaps"`
	// Best and Worst are the highest and lowest overall rank the entry
	// can reach under any one of those changes (its own rank when none
	// moves it).
	Best  int `json:"best"`
	Worst int `json:"worst"`
	// Tier is the entry's tier, numbered from 1 at the top (see Tiers).
	Tier int `json:"tier"`
}

// Stability returns how solid every entry's overall rank is (see
// EntryStability), by slug. Two entries can only change places when their
// totals lie within what one change can move (a score's weighted value, or
// twice 2·StabilityDelta·MaxScore for a weight), so only those pairs are
// compared, by index: the time is the number of such pairs times the number
// of conditions, the memory linear in the entries.
func Stability(s Snapshot) map[string]EntryStability {
	n := len(s.Entries)
	out := make(map[string]EntryStability, n)
	if n == 0 {
		return out
	}
	crit := make(map[string]int, len(s.Weights))
	weights := make(map[string]int, len(s.Weights))
	names := make([]string, 0, len(s.Weights))
	for i, w := range s.Weights {
		crit[w.Name] = i
		weights[w.Name] = w.Value
		names = append(names, w.Name)
	}
	// The scores a removal can drop: per entry, in name order, the total
	// it would be left with.
	type removal struct {
		criterion string
		left      int
	}
	removals := make([][]removal, n)
	reach := 0 // the farthest one change can move a pair apart
	for i, e := range s.Entries {
		for _, sc := range e.Scores {
			drop := weights[sc.Name] * sc.Value
			if drop == 0 {
				continue
			}
			removals[i] = append(removals[i], removal{sc.Name, e.Total - drop})
			reach = max(reach, drop)
		}
	}
	// One weight moved: every total changes, each by at most
	// Σ|Δweight|·MaxScore, so two entries can only swap when their totals
	// are within twice that.
	const window = 2 * 2 * StabilityDelta * MaxScore
	reach = max(reach, window)
	type move struct {
		criterion string
		delta     int
		totals    []int
	}
	var moves []move
	for _, c := range names {
		for _, d := range []int{StabilityDelta, -StabilityDelta} {
			w, ok := moveWeight(weights, names, c, d)
			if !ok {
				continue
			}
			wi := make([]int, len(names))
			for k, name := range names {
				wi[k] = w[name]
			}
			totals := make([]int, n)
			for k, e := range s.Entries {
				for _, sc := range e.Scores {
					if ci, ok := crit[sc.Name]; ok {
						totals[k] += wi[ci] * sc.Value
					}
				}
			}
			moves = append(moves, move{c, d, totals})
		}
	}
	// conditions returns the first score removal and the first weight move
	// under which a (above) and b (below) change places, -1 for none.
	conditions := func(a, b int) (score, weight int) {
		score, weight = -1, -1
		ea, eb := &s.Entries[a], &s.Entries[b]
		for k, r := range removals[a] {
			if eb.Total > r.left || eb.Total == r.left && eb.Slug < ea.Slug {
				score = k
				break
			}
		}
		if ea.Total-eb.Total <= window {
			for k, m := range moves {
				if m.totals[b] > m.totals[a] || m.totals[b] == m.totals[a] && eb.Slug < ea.Slug {
					weight = k
					break
				}
			}
		}
		return score, weight
	}
	swaps := func(a, b int) bool {
		sc, w := conditions(a, b)
		return sc >= 0 || w >= 0
	}
	// The entries within reach of i are a run of the published order
	// around it (totals descend): lo[i]..hi[i].
	lo, hi := make([]int, n), make([]int, n)
	for i, j := 0, 0; i < n; i++ {
		for s.Entries[j].Total-s.Entries[i].Total > reach {
			j++
		}
		lo[i] = j
	}
	for i, j := n-1, n-1; i >= 0; i-- {
		for s.Entries[i].Total-s.Entries[j].Total > reach {
			j--
		}
		hi[i] = j
	}
	others := make([]int, n)
	tiers := newTiers(n)
	for a := range n {
		for b := a + 1; b <= hi[a]; b++ {
			if swaps(a, b) {
				others[a]++
				others[b]++
				tiers.join(a, b)
			}
		}
	}
	tier := tiers.number()
	// The ranks reachable: under a moved weight, where the entry falls in
	// that move's order; under a removed score of its own, where it falls
	// with its lowest total left (the largest drop is the worst); under
	// another's removed score, one place up when an entry above can fall
	// below it (the entries it passes move up by one, none more).
	best, worst := make([]int, n), make([]int, n)
	for i := range n {
		best[i], worst[i] = i, i
	}
	order := make([]int, n)
	for _, m := range moves {
		for k := range order {
			order[k] = k
		}
		slices.SortFunc(order, func(x, y int) int {
			return cmp.Or(cmp.Compare(m.totals[y], m.totals[x]), cmp.Compare(s.Entries[x].Slug, s.Entries[y].Slug))
		})
		for at, i := range order {
			best[i], worst[i] = min(best[i], at), max(worst[i], at)
		}
	}
	for i, e := range s.Entries {
		if len(removals[i]) > 0 {
			left := removals[i][0].left
			for _, r := range removals[i][1:] {
				left = min(left, r.left)
			}
			// Its place among the others: those ahead of (left, slug).
			at := sort.Search(n, func(k int) bool {
				o := s.Entries[k]
				return o.Total < left || o.Total == left && o.Slug > e.Slug
			})
			if at > i {
				at-- // i itself, ahead of its new place, is not another
			}
			worst[i] = max(worst[i], at)
		}
		for j := lo[i]; j < i; j++ {
			if sc, _ := conditions(j, i); sc >= 0 {
				best[i] = min(best[i], i-1)
				break
			}
		}
	}
	for i, e := range s.Entries {
		st := EntryStability{Others: others[i], Swaps: []Swap{}, Best: best[i] + 1, Worst: worst[i] + 1, Tier: tier[i]}
		found := 0
		for d := 1; found < StabilityNearest && found < others[i] && (i-d >= lo[i] || i+d <= hi[i]); d++ {
			for _, j := range [2]int{i - d, i + d} {
				if j < lo[i] || j > hi[i] || found == StabilityNearest {
					continue
				}
				a, b := min(i, j), max(i, j)
				sc, w := conditions(a, b)
				if sc >= 0 {
					st.Swaps = append(st.Swaps, Swap{With: s.Entries[j].Slug, Kind: "score",
						Entry: s.Entries[a].Slug, Criterion: removals[a][sc].criterion})
				}
				if w >= 0 {
					st.Swaps = append(st.Swaps, Swap{With: s.Entries[j].Slug, Kind: "weight",
						Criterion: moves[w].criterion, Delta: moves[w].delta})
				}
				if sc >= 0 || w >= 0 {
					found++
				}
			}
		}
		out[e.Slug] = st
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
