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
// plan reads the full-text index rather than scanning.
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
	// The live projection's commits wrote many segments and merged some.
	var segments int
	if err := s.DB().QueryRowContext(ctx, "SELECT count(*) FROM search_fts_entry_segdir").Scan(&segments); err != nil || segments < 2 {
		t.Fatalf("the entries' index has %d segments (%v): the test would not search several", segments, err)
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
		res, err := s.Search(ctx, projections.SearchQuery{Text: c.q, Kind: c.kind, Ranking: "big"})
		hits, total := res.Hits, res.Total
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

	// A page of hits: Limit and Offset, the total unchanged; past
	// SearchCandidates, the total counts those and says there are more.
	res, err := s.Search(ctx, projections.SearchQuery{Text: "cloud", Kind: projections.SearchEntry, Limit: 50, Offset: projections.SearchCandidates - 20})
	if err != nil || res.Total != projections.SearchCandidates || !res.More || len(res.Hits) != 20 {
		t.Fatalf("last page: %d hits of %d (more: %v), %v", len(res.Hits), res.Total, res.More, err)
	}
	res, err = s.Search(ctx, projections.SearchQuery{Text: "cloud 01", Kind: projections.SearchEntry, Limit: 50, Offset: 50})
	if err != nil || res.Total != 1000 || res.More || len(res.Hits) != 50 {
		t.Fatalf("cloud 01: %d hits of %d (more: %v), %v", len(res.Hits), res.Total, res.More, err)
	}

	for _, q := range []string{string(name[:2]), string(name[:1])} {
		plan := projections.SearchPlan(t, s, projections.SearchQuery{Text: q, Kind: projections.SearchEntry})
		// FTS's index number 2 + the column MATCH reads is a full-text
		// query on the table's own column (2, after body and scope); 0
		// would scan every document.
		// A page is read from the index once, then its rows by id: the
		// index scanned before anything else.
		if !strings.Contains(plan, "VIRTUAL TABLE INDEX 4:") || !strings.HasPrefix(strings.SplitN(plan, "\n", 3)[1], "SCAN search_fts_entry") {
			t.Errorf("plan of %q does not read the index first:\n%s", q, plan)
		}
	}
}

// TestSearch10k searches a rebuilt ranking of 10,000 entries: a name's two
// characters find its entry first, one character every entry holding it,
// and a word all 10,000 hold stops at SearchCandidates and says so, while
// a ranking page's filter (NamedEntries) still has every one.
func TestSearch10k(t *testing.T) {
	if testing.Short() {
		t.Skip("full run only: writes and rebuilds a 10,000-entry history")
	}
	ctx := testContext(t)
	env := jstest.Start(t)
	l := history.Large{Slug: "big", Entries: 10_000, Criteria: 2, Seed: 5}
	if _, err := history.WriteLarge(ctx, env.Store, l); err != nil {
		t.Fatal(err)
	}
	path := t.TempDir() + "/read.db"
	if _, err := projections.Rebuild(ctx, env.Store, path); err != nil {
		t.Fatal(err)
	}
	s := open(t, path)
	i := 6789
	name := []rune(history.LargeName(i))
	holding := 0
	for j := range l.Entries {
		if strings.ContainsRune(history.LargeName(j), name[0]) {
			holding++
		}
	}
	for _, c := range []struct {
		q     string
		first string // "": any
		total int
		more  bool
	}{
		{string(name), history.LargeEntry(i), 1, false},
		{string(name[:2]), history.LargeEntry(i), 1, false},
		{string(name[:1]), "", holding, false},
		{fmt.Sprintf("cloud %05d", i), history.LargeEntry(i), 1, false},
		{"cloud", "", projections.SearchCandidates, true},
	} {
		res, err := s.Search(ctx, projections.SearchQuery{Text: c.q, Kind: projections.SearchEntry, Limit: 50})
		if err != nil {
			t.Fatal(err)
		}
		if res.Total != c.total || res.More != c.more || len(res.Hits) != min(50, c.total) ||
			c.first != "" && res.Hits[0].Entry != c.first {
			t.Errorf("%q: %d hits of %d (more: %v), want %d (more: %v) with %s first", c.q, len(res.Hits), res.Total, res.More, c.total, c.more, c.first)
		}
	}
	named, err := s.NamedEntries(ctx, "big", "cloud")
	if err != nil || len(named) != l.Entries {
		t.Errorf("NamedEntries(cloud): %d of %d, %v", len(named), l.Entries, err)
	}
	res, err := s.Search(ctx, projections.SearchQuery{Text: "按小时", Kind: projections.SearchEvidence, Limit: 10})
	if err != nil || !res.More || len(res.Hits) != 10 || len(res.Hits[0].Snippet) == 0 {
		t.Errorf("evidence 按小时: %d hits of %d (more: %v), %v", len(res.Hits), res.Total, res.More, err)
	}
}
