package projections_test

import "testing"

// TestIntegrityOfSearchIndex: read models holding search documents of
// every kind pass the integrity check when their file was not closed
// cleanly. SQLite's check of each full-text index against search_docs,
// which the three indexes share, called them malformed, so every start
// after a crash or a `crossrank verify` rebuilt the read models.
func TestIntegrityOfSearchIndex(t *testing.T) {
	_, ps, _ := seededDesk(t)
	ctx := testContext(t)
	var kinds int
	if err := ps.DB().QueryRowContext(ctx, "SELECT count(DISTINCT kind) FROM search_docs").Scan(&kinds); err != nil || kinds < 3 {
		t.Fatalf("search documents of %d kinds (%v), want entries, proposals and evidence", kinds, err)
	}
	if err := ps.Integrity(ctx); err != nil {
		t.Fatalf("integrity of read models with a search index: %v", err)
	}
}
