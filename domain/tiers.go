package domain

// Tiers instead of false precision: two entries whose order one of
// Stability's perturbations (one published score removed, one weight moved
// by ±StabilityDelta) can reverse are not told apart by the edition's
// evidence, so they share a tier, and so, transitively, does every entry
// they could change places with: a tier is a connected component of the
// "could change places" relation. Tiers are numbered 1, 2, … in the
// published order of their highest-ranked member.
//
// Each perturbation yields a new total order, and the pairs it reverses are
// its inversions; if it reverses a above c, any b between them is reversed
// with a or with c. So every tier is a run of consecutive ranks, and a tier
// boundary falls between two neighbours exactly when nothing above the
// boundary can change places with anything below it.
//
// Tiers are computed with Stability from the edition's snapshot, in the
// same integer arithmetic, and are not part of the snapshot or its hash:
// whoever holds the snapshot recomputes them.

// tierSets is a union–find over entry indexes (path halving, union by
// the lower index, so a set's root is its highest-ranked member).
type tierSets []int

func newTiers(n int) tierSets {
	t := make(tierSets, n)
	for i := range t {
		t[i] = i
	}
	return t
}

func (t tierSets) root(i int) int {
	for t[i] != i {
		t[i] = t[t[i]]
		i = t[i]
	}
	return i
}

// join puts a and b in one tier.
func (t tierSets) join(a, b int) {
	ra, rb := t.root(a), t.root(b)
	if ra == rb {
		return
	}
	t[max(ra, rb)] = min(ra, rb)
}

// number returns each index's tier, 1 for the tier of index 0 and one more
// for each next tier in the order of their first members.
func (t tierSets) number() []int {
	out := make([]int, len(t))
	n := 0
	for i := range t {
		if r := t.root(i); r == i { // the first member of a new tier
			n++
			out[i] = n
		} else {
			out[i] = out[r]
		}
	}
	return out
}
