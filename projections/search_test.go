package projections_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/crossrank/crossrank/events/jetstream/jstest"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/projections/history"
)

// TestSearchLarge searches a published ranking of 2,000 entries (the
// public pages' test in web/site searches 10,000): a
// Chinese two- and three-character substring of a name finds its entry
// alone, one character finds every entry holding it, English, slugs,
// proposal titles and evidence (claim, source domain) are found, and the
// plan reads the bigram index rather than scanning.
func TestSearchLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("full run only: indexes a 2,000-entry ranking; go test -short skips it")
	}
	ctx := testContext(t)
	env := jstest.Start(t)
	l := history.Large{Slug: "big", Entries: 2000, Criteria: 2, Seed: 3}
	t0 := time.Now()
	n, err := history.WriteLarge(ctx, env.Store, l)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %d events in %v", n, time.Since(t0))
	t0 = time.Now()
	s := open(t, t.TempDir()+"/read.db")
	evs := replayAll(t, env.Store)
	t.Logf("read in %v", time.Since(t0))
	t0 = time.Now()
	applyInBatches(t, s, evs, 1000)
	t.Logf("applied in %v", time.Since(t0))
	// The live projection put the bigrams in search_grams_recent and moved
	// them to search_grams past a size: the searches below read both.
	for _, table := range []string{"search_grams", "search_grams_recent"} {
		var rows int
		if err := s.DB().QueryRowContext(ctx, "SELECT count(*) FROM "+table).Scan(&rows); err != nil || rows == 0 {
			t.Fatalf("%s holds %d rows (%v): the test would not search both", table, rows, err)
		}
	}

	i := l.Entries*3/4 - 5
	name := []rune(history.LargeName(i))
	key, prop := "big/"+history.LargeEntry(i), fmt.Sprintf("big-p%d/", i)
	// named counts the entries whose name holds q: what a search must find.
	named := func(q string) int {
		n := 0
		for j := range l.Entries {
			if strings.Contains(history.LargeName(j), q) {
				n++
			}
		}
		return n
	}
	for _, c := range []struct {
		kind, q string
		want    string // ranking/entry or proposal/ of a hit that must be among them
		total   int    // -1: any number
	}{
		{projections.SearchEntry, string(name[:2]), key, 1},
		{projections.SearchEntry, string(name), key, 1},
		{projections.SearchEntry, string(name[1:]), key, named(string(name[1:]))},
		{projections.SearchEntry, string(name[:1]), key, named(string(name[:1]))},
		{projections.SearchEntry, fmt.Sprintf("CLOUD %05d", i), key, 1},
		{projections.SearchEntry, history.LargeEntry(i), key, 1},
		{projections.SearchProposal, string(name[:2]), prop, 1},
		{projections.SearchEvidence, fmt.Sprintf("vendor%d.example", i%50), prop, l.Entries / 50},
		{projections.SearchEvidence, string(name) + " 按小时", prop, 1},
		{projections.SearchEntry, "no such name", "", 0},
	} {
		hits, total, err := s.Search(ctx, projections.SearchQuery{Text: c.q, Kind: c.kind, Ranking: "big"})
		if err != nil {
			t.Fatalf("%s %q: %v", c.kind, c.q, err)
		}
		if c.total >= 0 && total != c.total {
			t.Errorf("%s %q: %d hits, want %d", c.kind, c.q, total, c.total)
		}
		found := c.want == ""
		for _, h := range hits {
			found = found || h.Ranking+"/"+h.Entry == c.want || h.Proposal+"/" == c.want
		}
		if !found {
			t.Errorf("%s %q: %s is not among the %d hits", c.kind, c.q, c.want, total)
		}
	}

	// A page of hits: Limit and Offset, the total unchanged.
	hits, total, err := s.Search(ctx, projections.SearchQuery{Text: "cloud", Kind: projections.SearchEntry, Limit: 50, Offset: l.Entries - 20})
	if err != nil || total != l.Entries || len(hits) != 20 {
		t.Fatalf("last page: %d hits of %d, %v", len(hits), total, err)
	}

	for _, q := range []string{string(name[:2]), string(name[:1])} {
		plan := projections.SearchPlan(t, s, projections.SearchQuery{Text: q, Kind: projections.SearchEntry})
		if !strings.Contains(plan, "search_grams USING PRIMARY KEY") || !strings.Contains(plan, "search_grams_recent USING PRIMARY KEY") ||
			strings.Contains(plan, "SCAN search_grams") ||
			strings.Contains(plan, "SCAN d") {
			t.Errorf("plan of %q reads no index:\n%s", q, plan)
		}
	}
}
