package projections_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/crossrank/crossrank/events/jetstream/jstest"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/projections/history"
)

// BenchmarkSearch10k searches a rebuilt ranking of 10,000 entries as the
// desk's search page does (a page of ten of each kind) and as GET
// /api/v1/search does (one kind), for a query every evidence item holds,
// one every entry holds and one that finds a single entry.
func BenchmarkSearch10k(b *testing.B) {
	ctx := context.Background()
	env := jstest.Start(b)
	if _, err := history.WriteLarge(ctx, env.Store, history.Large{Slug: "big", Entries: 10_000, Criteria: 2, Seed: 3}); err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "read.db")
	if _, err := projections.Rebuild(ctx, env.Store, path); err != nil {
		b.Fatal(err)
	}
	s, err := projections.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	every := []string{projections.SearchEntry, projections.SearchProposal, projections.SearchEvidence}
	for _, c := range []struct {
		name, q string
		kinds   []string
	}{
		{"desk/中", "中", every}, // one character: every entry's name holds it
		{"api-entry/中", "中", []string{projections.SearchEntry}},
		{"desk/按小时", "按小时", every},
		{"api-entry/按小时", "按小时", []string{projections.SearchEntry}},
		{"desk/cloud", "cloud", every},
		{"api-entry/cloud", "cloud", []string{projections.SearchEntry}},
		{"desk/one-name", history.LargeName(6789), every},
	} {
		b.Run(c.name, func(b *testing.B) {
			for range b.N {
				for _, k := range c.kinds {
					if _, err := s.Search(ctx, projections.SearchQuery{Text: c.q, Kind: k, Limit: 10}); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
