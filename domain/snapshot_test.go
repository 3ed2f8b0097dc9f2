package domain_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// trainingAndBudget are the scenarios of TestScenarioReorders.
func trainingAndBudget() *events.ScenariosSet {
	return &events.ScenariosSet{Scenarios: []events.Scenario{
		{Slug: "training", Name: events.Text{En: "Training"}, Weights: map[string]int{"perf": 70, "price": 20, "support": 10}},
		{Slug: "budget", Name: events.Text{En: "Budget"}, Weights: map[string]int{"price": 100, "perf": 0, "support": 0}},
	}}
}

// goldenWorld publishes the six entries of the arithmetic tests in two
// editions, with attributes, under the test ranking and its scenarios.
func goldenWorld(t testing.TB) *world {
	d := rankingDefinition()
	w := newWorld(t, []given{{"pat", domain.RankingID(rk), &d}, {"pat", domain.RankingID(rk), trainingAndBudget()}})
	var first, second events.EditionPublished
	first = events.EditionPublished{Ranking: rk, Number: 1, Proposals: []string{"p1"}}
	second = events.EditionPublished{Ranking: rk, Number: 2, Proposals: []string{"p2"}}
	for i, slug := range slices.Sorted(maps.Keys(sixEntries())) {
		e := sixEntries()[slug]
		ed := &first
		if i >= 4 {
			ed = &second
		}
		ed.NewEntries = append(ed.NewEntries, events.PublishedEntry{Slug: slug, Name: events.Text{Zh: slug + "云", En: slug}, Category: e.Category})
		for _, c := range slices.Sorted(maps.Keys(e.Scores)) {
			ed.Changes = append(ed.Changes, events.AppliedChange{Entry: slug, Target: "score:" + c, ToScore: ptr(e.Scores[c])})
		}
	}
	first.Changes = append(first.Changes,
		events.AppliedChange{Entry: "acme", Target: "attr:root", ToTags: []string{"yes"}},
		events.AppliedChange{Entry: "acme", Target: "attr:region", ToTags: []string{"cn-north", "cn-east"}})
	second.Changes = append(second.Changes,
		events.AppliedChange{Entry: "bolt", Target: "attr:root", ToTags: []string{"no"}})
	w.apply("pat", domain.EditionID(rk), &first)
	w.apply("pat", domain.EditionID(rk), &second)
	return w
}

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// TestSnapshotGolden pins the canonical bytes of a small ranking: any change
// to the snapshot's shape or order changes every edition's hash, so it must
// be deliberate (go test ./domain -run Golden -update).
func TestSnapshotGolden(t *testing.T) {
	w := goldenWorld(t)
	snap := domain.BuildSnapshot(w.ranking, w.edition)
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, snap.JSON(), "", "  "); err != nil {
		t.Fatal(err)
	}
	pretty.WriteByte('\n')
	path := filepath.Join("testdata", "snapshot.golden.json")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, pretty.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	golden, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	// The file is indented to be read; compacted it must be the exact
	// canonical bytes the hash is taken over.
	var canonical bytes.Buffer
	if err := json.Compact(&canonical, golden); err != nil {
		t.Fatal(err)
	}
	if got := snap.JSON(); !bytes.Equal(got, canonical.Bytes()) {
		t.Errorf("snapshot JSON differs from %s:\n got %s\nwant %s", path, got, canonical.Bytes())
	}
	if got, want := snap.Hash(), sha256Hex(canonical.Bytes()); got != want {
		t.Errorf("Hash = %s, want sha256 of the canonical bytes %s", got, want)
	}
	// The hand-computed facts the golden file must show.
	var order []string
	for _, e := range snap.Entries {
		order = append(order, fmt.Sprintf("%s:%d:%d/%d", e.Slug, e.Total, e.Rank, e.CategoryRank))
	}
	if want := []string{"acme:610:1/1", "dyna:600:2/1", "echo:600:3/2", "cora:590:4/3", "bolt:570:5/2", "fern:0:6/3"}; !reflect.DeepEqual(order, want) {
		t.Errorf("entries %v, want %v", order, want)
	}
	wantScen := []domain.SnapshotScenario{
		{Slug: "budget", Order: []string{"cora", "bolt", "dyna", "echo", "acme", "fern"}},
		{Slug: "training", Order: []string{"acme", "dyna", "echo", "bolt", "cora", "fern"}},
	}
	if !reflect.DeepEqual(snap.Scenarios, wantScen) {
		t.Errorf("scenarios %+v, want %+v", snap.Scenarios, wantScen)
	}
}

// TestSnapshotEmpty: an unpublished ranking has a snapshot with empty lists,
// never null.
func TestSnapshotEmpty(t *testing.T) {
	d := rankingDefinition()
	w := newWorld(t, []given{{"pat", domain.RankingID(rk), &d}})
	got := string(domain.BuildSnapshot(w.ranking, w.edition).JSON())
	want := `{"ranking":"gpu","edition":0,"weights":[{"name":"perf","value":35},{"name":"price","value":40},{"name":"support","value":25}],"entries":[],"scenarios":[]}`
	if got != want {
		t.Errorf("empty snapshot:\n got %s\nwant %s", got, want)
	}
}

// TestSnapshotHashChanges: every published fact is part of the hash.
func TestSnapshotHashChanges(t *testing.T) {
	base := func() *world { return goldenWorld(t) }
	ref := domain.BuildSnapshot(base().ranking, base().edition).Hash()
	tests := []struct {
		name   string
		change func(w *world)
	}{
		{"a score", func(w *world) { w.edition.Entries["fern"].Scores["price"] = 1 }},
		{"a tag", func(w *world) { w.edition.Entries["acme"].Attributes["region"] = []string{"cn-east"} }},
		{"a name", func(w *world) { w.edition.Entries["acme"].Name.Zh = "阿克米" }},
		{"a category", func(w *world) { w.edition.Entries["fern"].Category = "cloud" }},
		{"the edition number", func(w *world) { w.edition.Number = 3 }},
		{"the weights", func(w *world) {
			w.apply("pat", domain.RankingID(rk), &events.WeightsSet{Weights: map[string]int{"price": 41, "perf": 34, "support": 25}})
		}},
		{"a scenario", func(w *world) {
			s := trainingAndBudget()
			s.Scenarios[1].Slug = "cheap"
			w.apply("pat", domain.RankingID(rk), s)
		}},
	}
	for _, tt := range tests {
		w := base()
		tt.change(w)
		if domain.BuildSnapshot(w.ranking, w.edition).Hash() == ref {
			t.Errorf("changing %s left the hash unchanged", tt.name)
		}
	}
}

// TestSnapshotHashIsOrderFree is the property the edition hash rests on:
// the same published facts give the same hash whatever order they came in
// (entries and changes inside each edition, tags, criteria, scenarios, map
// insertion order). 200 seeded shuffles of a random ranking.
func TestSnapshotHashIsOrderFree(t *testing.T) {
	rng := rand.New(rand.NewPCG(20260302, 1))
	criteria, scen, editions := randomRanking(rng)
	build := func(shuffle bool) (*domain.Ranking, *domain.Edition) {
		d := rankingDefinition()
		d.Criteria = slices.Clone(criteria)
		sc := &events.ScenariosSet{Scenarios: slices.Clone(scen)}
		eds := make([]events.EditionPublished, len(editions))
		for i, ed := range editions {
			eds[i] = ed
			eds[i].NewEntries = slices.Clone(ed.NewEntries)
			eds[i].Changes = slices.Clone(ed.Changes)
		}
		if shuffle {
			rng.Shuffle(len(d.Criteria), func(i, j int) { d.Criteria[i], d.Criteria[j] = d.Criteria[j], d.Criteria[i] })
			rng.Shuffle(len(sc.Scenarios), func(i, j int) { sc.Scenarios[i], sc.Scenarios[j] = sc.Scenarios[j], sc.Scenarios[i] })
			for i := range sc.Scenarios {
				sc.Scenarios[i].Weights = reinsert(rng, sc.Scenarios[i].Weights)
			}
			for i := range eds {
				ne, ch := eds[i].NewEntries, eds[i].Changes
				rng.Shuffle(len(ne), func(a, b int) { ne[a], ne[b] = ne[b], ne[a] })
				rng.Shuffle(len(ch), func(a, b int) { ch[a], ch[b] = ch[b], ch[a] })
				for j := range ch {
					tags := slices.Clone(ch[j].ToTags)
					rng.Shuffle(len(tags), func(a, b int) { tags[a], tags[b] = tags[b], tags[a] })
					ch[j].ToTags = tags
				}
			}
		}
		w := newWorld(t, []given{{"pat", domain.RankingID(rk), &d}, {"pat", domain.RankingID(rk), sc}})
		for i := range eds {
			w.apply("pat", domain.EditionID(rk), &eds[i])
		}
		return w.ranking, w.edition
	}
	r, ed := build(false)
	want := domain.BuildSnapshot(r, ed)
	wantHash := want.Hash()
	if len(want.Entries) < 20 || len(want.Scenarios) != 3 {
		t.Fatalf("the random ranking is too small: %d entries, %d scenarios", len(want.Entries), len(want.Scenarios))
	}
	for trial := range 200 {
		r, ed := build(true)
		if got := domain.BuildSnapshot(r, ed); got.Hash() != wantHash {
			t.Fatalf("trial %d: hash %s, want %s\n got %s\nwant %s", trial, got.Hash(), wantHash, got.JSON(), want.JSON())
		}
		// The same published state inserted into fresh maps in another order.
		re := &domain.Edition{Ranking: ed.Ranking, Number: ed.Number, Entries: map[string]*domain.PublishedEntry{}}
		slugs := ed.EntrySlugs()
		rng.Shuffle(len(slugs), func(i, j int) { slugs[i], slugs[j] = slugs[j], slugs[i] })
		for _, s := range slugs {
			pe := *ed.Entries[s]
			pe.Scores = reinsert(rng, pe.Scores)
			pe.Attributes = map[string][]string{}
			for k, v := range ed.Entries[s].Attributes {
				v = slices.Clone(v)
				rng.Shuffle(len(v), func(i, j int) { v[i], v[j] = v[j], v[i] })
				pe.Attributes[k] = v
			}
			re.Entries[s] = &pe
		}
		if got := domain.BuildSnapshot(r, re).Hash(); got != wantHash {
			t.Fatalf("trial %d: rebuilt edition hash %s, want %s", trial, got, wantHash)
		}
	}
}

// randomRanking returns criteria (weights summing to 100), three scenarios
// and three editions of about 30 entries: new entries with scores and tags,
// then changes that overwrite scores, remove scores and remove attributes.
// Within one edition no two changes touch the same value, as Preview enforces.
func randomRanking(rng *rand.Rand) ([]events.Criterion, []events.Scenario, []events.EditionPublished) {
	crit := []string{"price", "perf", "support", "network", "storage"}
	weights := splitHundred(rng, len(crit))
	var criteria []events.Criterion
	for i, c := range crit {
		criteria = append(criteria, events.Criterion{Slug: c, Name: events.Text{En: c}, Weight: weights[i]})
	}
	var scen []events.Scenario
	for _, s := range []string{"training", "inference", "budget"} {
		w := map[string]int{}
		for i, v := range splitHundred(rng, len(crit)) {
			w[crit[i]] = v
		}
		scen = append(scen, events.Scenario{Slug: s, Name: events.Text{En: s}, Weights: w})
	}
	regions := []string{"cn-east", "cn-north", "cn-south", "eu-west", "us-west"}
	eds := make([]events.EditionPublished, 3)
	var published []string
	for n := range eds {
		ed := &eds[n]
		ed.Ranking, ed.Number = rk, n+1
		if n < 2 {
			for i := range 15 {
				slug := fmt.Sprintf("e%02d", n*15+i)
				cat := []string{"cloud", "market"}[rng.IntN(2)]
				ed.NewEntries = append(ed.NewEntries, events.PublishedEntry{Slug: slug, Name: events.Text{En: slug}, Category: cat})
				for _, c := range crit {
					if rng.IntN(5) > 0 { // some criteria stay unscored
						ed.Changes = append(ed.Changes, events.AppliedChange{Entry: slug, Target: "score:" + c, ToScore: ptr(rng.IntN(11))})
					}
				}
				tags := slices.Clone(regions[:1+rng.IntN(len(regions))])
				ed.Changes = append(ed.Changes, events.AppliedChange{Entry: slug, Target: "attr:region", ToTags: tags})
				if rng.IntN(2) == 0 {
					ed.Changes = append(ed.Changes, events.AppliedChange{Entry: slug, Target: "attr:root", ToTags: []string{"yes"}})
				}
				published = append(published, slug)
			}
			continue
		}
		for _, slug := range published {
			switch rng.IntN(4) {
			case 0:
				ed.Changes = append(ed.Changes, events.AppliedChange{Entry: slug, Target: "score:price", ToScore: ptr(rng.IntN(11))})
			case 1:
				ed.Changes = append(ed.Changes, events.AppliedChange{Entry: slug, Target: "score:perf"}) // score removed
			case 2:
				ed.Changes = append(ed.Changes, events.AppliedChange{Entry: slug, Target: "attr:region"}) // attribute removed
			}
		}
	}
	return criteria, scen, eds
}

// splitHundred returns n non-negative integers summing to 100.
func splitHundred(rng *rand.Rand, n int) []int {
	out := make([]int, n)
	for range 100 {
		out[rng.IntN(n)]++
	}
	return out
}

// reinsert copies m into a new map, inserting its keys in a random order.
func reinsert[V any](rng *rand.Rand, m map[string]V) map[string]V {
	keys := slices.Sorted(maps.Keys(m))
	rng.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
	out := make(map[string]V, len(m))
	for _, k := range keys {
		out[k] = m[k]
	}
	return out
}
