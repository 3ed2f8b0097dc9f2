package domain

import "slices"

// Why did an entry move between two editions? Its rank changes because
// its own scores changed, because other entries' scores changed (or
// entries arrived), and because the methodology changed (weights moved,
// criteria added or retired). The three interact, so a split needs a fixed
// order; this one applies them one at a time, each on top of the last:
//
//  1. from: every score and weight as edition From published them;
//  2. own: the entry's own scores as edition To has them, the rest as in 1;
//  3. others: every entry's scores as in To (entries new since From join),
//     the weights still From's;
//  4. methodology: To's weights as well — edition To's published ranking.
//
// Each part is the rank (or total) after its step minus the one before, so
// the parts add up to the whole move exactly. A score on a criterion that
// To no longer weights (a retired criterion) keeps From's value in steps 2
// and 3: dropping it is the methodology's doing, not a score change. All
// arithmetic is the ranking's own: integer totals Σ weight·score, ties by
// slug.

// MoveSplit is an entry's move between two editions, in parts (see above).
// Ranks are 1 at the top; a part's rank move is positive when the entry
// went up.
type MoveSplit struct {
	From, To           int // the editions
	RankFrom, RankTo   int
	TotalFrom, TotalTo int
	// Rank and total after each step: own scores, others' scores; the
	// methodology step ends at RankTo and TotalTo.
	RankOwn, RankOthers   int
	TotalOwn, TotalOthers int
	// Scores are the entry's score changes (criteria by name);
	// Methodology the weight changes that moved its total.
	Scores      []ScoreMove
	Methodology []WeightMove
}

// Parts returns the rank move (+ is up) due to the entry's own scores,
// others' scores and the methodology; they add up to RankFrom − RankTo.
func (m MoveSplit) Parts() (own, others, method int) {
	return m.RankFrom - m.RankOwn, m.RankOwn - m.RankOthers, m.RankOthers - m.RankTo
}

// ScoreMove is one of the entry's scores between the editions; a nil side
// had no score.
type ScoreMove struct {
	Criterion string
	From, To  *int
	// Effect is what the change did to the total at From's weights.
	Effect int
}

// WeightMove is a criterion whose weight differs between the editions
// (0 where it was not weighted: added or retired) and what that did to the
// entry's total, at its scores of step 3.
type WeightMove struct {
	Criterion string
	From, To  int
	Effect    int
}

// SplitMove returns entry's move from edition snapshot from to snapshot
// to; false when the entry is not in both.
func SplitMove(from, to Snapshot, entry string) (MoveSplit, bool) {
	fi := slices.IndexFunc(from.Entries, func(e SnapshotEntry) bool { return e.Slug == entry })
	ti := slices.IndexFunc(to.Entries, func(e SnapshotEntry) bool { return e.Slug == entry })
	if fi < 0 || ti < 0 {
		return MoveSplit{}, false
	}
	wFrom, wTo := namedMap(from.Weights), namedMap(to.Weights)
	// The scores of steps 2 and 3: To's, but a retired criterion's as From had it.
	later := func(e SnapshotEntry, before map[string]int) map[string]int {
		sc := namedMap(e.Scores)
		for c := range wFrom {
			if _, kept := wTo[c]; !kept {
				if v, ok := before[c]; ok {
					sc[c] = v
				} else {
					delete(sc, c)
				}
			}
		}
		return sc
	}
	before := map[string]map[string]int{}
	for _, e := range from.Entries {
		before[e.Slug] = namedMap(e.Scores)
	}
	own := later(to.Entries[ti], before[entry])
	m := MoveSplit{From: from.Edition, To: to.Edition, RankFrom: from.Entries[fi].Rank, RankTo: to.Entries[ti].Rank,
		TotalFrom: from.Entries[fi].Total, TotalTo: to.Entries[ti].Total}

	// Step 2: From's ranking with the entry's own scores replaced.
	m.TotalOwn = Total(own, wFrom)
	m.RankOwn = 1
	for _, e := range from.Entries {
		if e.Slug != entry && ahead(e.Total, e.Slug, m.TotalOwn, entry) {
			m.RankOwn++
		}
	}
	// Step 3: every entry of To with its later scores, at From's weights.
	m.TotalOthers = m.TotalOwn
	m.RankOthers = 1
	for _, e := range to.Entries {
		if e.Slug != entry && ahead(Total(later(e, before[e.Slug]), wFrom), e.Slug, m.TotalOthers, entry) {
			m.RankOthers++
		}
	}

	old := before[entry]
	for _, c := range unionKeys(old, own) {
		f, okf := old[c]
		t, okt := own[c]
		if okf == okt && f == t {
			continue
		}
		sm := ScoreMove{Criterion: c, Effect: wFrom[c] * (t - f)}
		if okf {
			sm.From = &f
		}
		if okt {
			sm.To = &t
		}
		m.Scores = append(m.Scores, sm)
	}
	for _, c := range unionKeys(wFrom, wTo) {
		if wFrom[c] == wTo[c] {
			continue
		}
		if eff := (wTo[c] - wFrom[c]) * own[c]; eff != 0 {
			m.Methodology = append(m.Methodology, WeightMove{Criterion: c, From: wFrom[c], To: wTo[c], Effect: eff})
		}
	}
	return m, true
}

// ahead reports whether (total, slug) ranks above (otherTotal, other).
func ahead(total int, slug string, otherTotal int, other string) bool {
	return total > otherTotal || total == otherTotal && slug < other
}

func namedMap(list []NamedInt) map[string]int {
	out := make(map[string]int, len(list))
	for _, n := range list {
		out[n.Name] = n.Value
	}
	return out
}

// unionKeys returns the keys of a and b, sorted.
func unionKeys(a, b map[string]int) []string {
	out := make([]string, 0, len(a)+len(b))
	for k := range a {
		out = append(out, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}
