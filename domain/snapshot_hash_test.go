package domain_test

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// TestSnapshotHashStreamed holds Hash, which hashes the snapshot's JSON an
// entry at a time, to the SHA-256 of JSON's bytes, for snapshots with
// empty and missing lists and with text json.Marshal escapes.
func TestSnapshotHashStreamed(t *testing.T) {
	full := domain.Snapshot{Ranking: "r<&>", Edition: 3, Weights: []domain.NamedInt{{Name: "a", Value: 60}, {Name: "b", Value: 40}},
		Entries: []domain.SnapshotEntry{
			{Slug: "e1", Name: events.Text{Zh: "条目\u2028一", En: "One & <two>"}, Category: "k", Scores: []domain.NamedInt{{Name: "a", Value: 7}},
				Attributes: []domain.NamedTags{{Name: "root", Tags: []string{"yes"}}}, Total: 420, Rank: 1, CategoryRank: 1},
			{Slug: "e2", Name: events.Text{En: "\"quoted\"\t\x01"}, Scores: []domain.NamedInt{}, Attributes: []domain.NamedTags{}, Rank: 2, CategoryRank: 1},
		},
		Scenarios: []domain.SnapshotScenario{{Slug: "s", Order: []string{"e2", "e1"}}, {Slug: "t", Order: []string{}}}}
	for _, tt := range []struct {
		name string
		s    domain.Snapshot
	}{
		{"full", full},
		{"empty lists", domain.Snapshot{Ranking: "r", Weights: []domain.NamedInt{}, Entries: []domain.SnapshotEntry{}, Scenarios: []domain.SnapshotScenario{}}},
		{"nil lists", domain.Snapshot{Ranking: "r"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sum := sha256.Sum256(tt.s.JSON())
			if got, want := tt.s.Hash(), hex.EncodeToString(sum[:]); got != want {
				t.Fatalf("Hash %s, SHA-256 of JSON %s\n%s", got, want, tt.s.JSON())
			}
		})
	}
}
