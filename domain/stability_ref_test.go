package domain

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/crossrank/crossrank/events"
)

// stabilityRef is Stability the slow way: every condition applied to the
// whole snapshot, the order re-sorted, and every pair compared (no window).
func stabilityRef(s Snapshot) map[string]EntryStability {
	out, _ := stabilityRefPairs(s)
	return out
}

// stabilityRefPairs is stabilityRef with the pairs (by index, above first)
// that could change places; tiers are its connected components, found by
// relabelling, numbered by their first member.
func stabilityRefPairs(s Snapshot) (map[string]EntryStability, map[[2]int]bool) {
	n := len(s.Entries)
	pos := map[string]int{}
	for i, e := range s.Entries {
		pos[e.Slug] = i
	}
	weights := map[string]int{}
	var names []string
	for _, w := range s.Weights {
		weights[w.Name] = w.Value
		names = append(names, w.Name)
	}
	type conds struct{ score, weight *Swap }
	pairs := map[[2]int]*conds{}
	best, worst := make([]int, n), make([]int, n)
	for i := range n {
		best[i], worst[i] = i, i
	}
	// inverted records, for every pair a (above) b (below) whose order
	// totals reverses, sw as the pair's condition of its kind unless one
	// was found first.
	inverted := func(totals []int, sw Swap) {
		order := make([]int, n)
		for i := range order {
			order[i] = i
		}
		slices.SortFunc(order, func(x, y int) int {
			if totals[x] != totals[y] {
				return totals[y] - totals[x]
			}
			if s.Entries[x].Slug < s.Entries[y].Slug {
				return -1
			}
			return 1
		})
		at := make([]int, n)
		for k, i := range order {
			at[i] = k
			best[i], worst[i] = min(best[i], k), max(worst[i], k)
		}
		for a := range n {
			for b := a + 1; b < n; b++ {
				if at[b] > at[a] {
					continue
				}
				c := pairs[[2]int{a, b}]
				if c == nil {
					c = &conds{}
					pairs[[2]int{a, b}] = c
				}
				x := sw
				if sw.Kind == "score" && c.score == nil {
					c.score = &x
				} else if sw.Kind == "weight" && c.weight == nil {
					c.weight = &x
				}
			}
		}
	}
	total := func(e SnapshotEntry, w map[string]int, skip string) int {
		t := 0
		for _, sc := range e.Scores {
			if sc.Name != skip {
				t += w[sc.Name] * sc.Value
			}
		}
		return t
	}
	for i, e := range s.Entries {
		for _, sc := range e.Scores {
			totals := make([]int, n)
			for k, o := range s.Entries {
				totals[k] = o.Total
			}
			totals[i] = total(e, weights, sc.Name)
			inverted(totals, Swap{Kind: "score", Entry: e.Slug, Criterion: sc.Name})
		}
	}
	for _, c := range names {
		for _, d := range []int{StabilityDelta, -StabilityDelta} {
			w, ok := moveWeight(weights, names, c, d)
			if !ok {
				continue
			}
			totals := make([]int, n)
			for k, o := range s.Entries {
				totals[k] = total(o, w, "")
			}
			inverted(totals, Swap{Kind: "weight", Criterion: c, Delta: d})
		}
	}
	label := make([]int, n)
	for i := range label {
		label[i] = i
	}
	swappable := map[[2]int]bool{}
	for p := range pairs {
		swappable[p] = true
		from, to := label[p[0]], label[p[1]]
		for i := range label {
			if label[i] == from || label[i] == to {
				label[i] = min(from, to)
			}
		}
	}
	tier := map[int]int{}
	out := map[string]EntryStability{}
	for i, e := range s.Entries {
		if _, ok := tier[label[i]]; !ok {
			tier[label[i]] = len(tier) + 1
		}
		st := EntryStability{Swaps: []Swap{}, Best: best[i] + 1, Worst: worst[i] + 1, Tier: tier[label[i]]}
		var near []int
		for j := range n {
			if c := pairs[[2]int{min(i, j), max(i, j)}]; j != i && c != nil {
				st.Others++
				near = append(near, j)
			}
		}
		slices.SortStableFunc(near, func(x, y int) int {
			dx, dy := max(x-i, i-x), max(y-i, i-y)
			if dx != dy {
				return dx - dy
			}
			return x - y
		})
		for _, j := range near[:min(len(near), StabilityNearest)] {
			c := pairs[[2]int{min(i, j), max(i, j)}]
			for _, sw := range []*Swap{c.score, c.weight} {
				if sw != nil {
					x := *sw
					x.With = s.Entries[j].Slug
					st.Swaps = append(st.Swaps, x)
				}
			}
		}
		out[e.Slug] = st
	}
	return out, swappable
}

// randomSnapshot is a ranking of n entries with scores drawn from 0..top
// on k criteria (a small top makes many ties; a negative top gives every
// entry every score 5: all tied), canonical like BuildSnapshot.
func randomSnapshot(rng *rand.Rand, n, k, top int) Snapshot {
	r := &Ranking{Slug: "r"}
	left := 100
	for c := range k {
		w := left
		if c < k-1 {
			w = rng.IntN(left + 1)
		}
		left -= w
		r.Criteria = append(r.Criteria, events.Criterion{Slug: fmt.Sprintf("c%d", c), Weight: w})
	}
	ed := &Edition{Number: 1, Entries: map[string]*PublishedEntry{}}
	for i := range n {
		slug := fmt.Sprintf("e%03d", i)
		sc := map[string]int{}
		for c := range k {
			if top < 0 {
				sc[fmt.Sprintf("c%d", c)] = 5
			} else if rng.IntN(6) > 0 { // some scores unpublished
				sc[fmt.Sprintf("c%d", c)] = rng.IntN(top + 1)
			}
		}
		ed.Entries[slug] = &PublishedEntry{Slug: slug, Scores: sc}
	}
	return BuildSnapshot(r, ed)
}

// TestStabilityReference: on many small random rankings, Stability equals
// the brute-force reference: the same count of other entries for every
// entry, the same nearest swaps with the same conditions, the same best
// and worst rank.
func TestStabilityReference(t *testing.T) {
	for seed := range uint64(300) {
		rng := rand.New(rand.NewPCG(seed, 18))
		n, k := 1+rng.IntN(14), 1+rng.IntN(4)
		s := randomSnapshot(rng, n, k, 1+rng.IntN(MaxScore))
		got, want := Stability(s), stabilityRef(s)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("seed %d: weights %v\nStability %+v\nreference %+v", seed, s.Weights, got, want)
		}
	}
}

// TestStabilityBounded: in a ranking of 1000 entries that are all tied
// or nearly so, every entry could change places with hundreds of others,
// yet lists conditions for at most StabilityNearest of them, each with at
// most one condition of each kind.
func TestStabilityBounded(t *testing.T) {
	for _, top := range []int{-1, 1} { // all tied; near-tied
		s := randomSnapshot(rand.New(rand.NewPCG(1, uint64(top))), 1000, 4, top)
		st := Stability(s)
		if len(st) != 1000 {
			t.Fatalf("%d entries have a stability", len(st))
		}
		most := 0
		for slug, e := range st {
			with := map[string]int{}
			for _, sw := range e.Swaps {
				with[sw.With]++
				if with[sw.With] > 2 {
					t.Fatalf("%s: more than two conditions with %s", slug, sw.With)
				}
			}
			if len(with) > StabilityNearest || len(with) > e.Others || e.Others > 999 ||
				len(with) < min(e.Others, StabilityNearest) {
				t.Fatalf("%s: %d others, %d listed", slug, e.Others, len(with))
			}
			most = max(most, e.Others)
		}
		if top < 0 && most != 999 {
			t.Errorf("all tied: at most %d others, want 999", most)
		}
		t.Logf("top %d: at most %d others", top, most)
	}
}

func BenchmarkStability(b *testing.B) {
	for _, top := range []int{-1, 1, MaxScore} {
		s := randomSnapshot(rand.New(rand.NewPCG(1, uint64(top))), 1000, 8, top)
		b.Run(fmt.Sprintf("n1000-top%d", top), func(b *testing.B) {
			for b.Loop() {
				Stability(s)
			}
		})
	}
}
