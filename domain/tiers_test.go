package domain

import (
	"math/rand/v2"
	"testing"
)

// TestTiersTransitive: where a could change places with b and b with c
// but a never with c, the three still share one tier; found in random
// rankings checked against the brute-force reference (whose tiers
// TestStabilityReference holds equal to Stability's).
func TestTiersTransitive(t *testing.T) {
	found := 0
	for seed := range uint64(400) {
		rng := rand.New(rand.NewPCG(seed, 28))
		s := randomSnapshot(rng, 4+rng.IntN(10), 1+rng.IntN(4), 1+rng.IntN(MaxScore))
		_, pairs := stabilityRefPairs(s)
		st := Stability(s)
		n := len(s.Entries)
		for a := range n {
			for b := a + 1; b < n; b++ {
				for c := b + 1; c < n; c++ {
					if !pairs[[2]int{a, b}] || !pairs[[2]int{b, c}] || pairs[[2]int{a, c}] {
						continue
					}
					found++
					ta, tb, tc := st[s.Entries[a].Slug].Tier, st[s.Entries[b].Slug].Tier, st[s.Entries[c].Slug].Tier
					if ta != tb || tb != tc {
						t.Fatalf("seed %d: %s~%s~%s in tiers %d, %d, %d", seed, s.Entries[a].Slug, s.Entries[b].Slug, s.Entries[c].Slug, ta, tb, tc)
					}
				}
			}
		}
	}
	if found == 0 {
		t.Fatal("no chain a~b~c without a~c in the random rankings: the test checks nothing")
	}
	t.Logf("%d chains", found)
}

// TestTiersAreRuns: tiers are runs of consecutive ranks numbered 1, 2, …
// down the published order; an entry that could change places with none
// is a tier of its own, one that could is never alone.
func TestTiersAreRuns(t *testing.T) {
	for seed := range uint64(200) {
		rng := rand.New(rand.NewPCG(seed, 29))
		s := randomSnapshot(rng, 1+rng.IntN(40), 1+rng.IntN(5), 1+rng.IntN(MaxScore))
		checkTierRuns(t, s, Stability(s))
	}
}

// At 10,000 entries tiers are checked on the real generator's ranking,
// whose stability the site computes anyway (TestRankingPagesAtScale):
// a second dense 10,000-entry snapshot here would only repeat that cost.

func checkTierRuns(t *testing.T, s Snapshot, st map[string]EntryStability) {
	t.Helper()
	size := map[int]int{}
	prev := 0
	for _, e := range s.Entries {
		tier := st[e.Slug].Tier
		if tier != prev && tier != prev+1 {
			t.Fatalf("%s: tier %d after tier %d", e.Slug, tier, prev)
		}
		size[tier]++
		prev = tier
	}
	for _, e := range s.Entries {
		alone := size[st[e.Slug].Tier] == 1
		if alone != (st[e.Slug].Others == 0) {
			t.Fatalf("%s: %d others, alone in its tier %v", e.Slug, st[e.Slug].Others, alone)
		}
	}
}
