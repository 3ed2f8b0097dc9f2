package projections

import "context"

// A ranking is public once it has published an edition. A ranking defined
// by a new-ranking proposal still open has a row at edition 0 (so entries
// can be proposed for it), and no public page, feed or answer shows it.

// PublicRankings lists the rankings that have published an edition, by slug.
func (s *Store) PublicRankings(ctx context.Context) ([]RankingSummary, error) {
	list, err := s.Rankings(ctx)
	if err != nil {
		return nil, err
	}
	out := list[:0]
	for _, r := range list {
		if r.Edition >= 1 {
			out = append(out, r)
		}
	}
	return out, nil
}

// PublishedRanking is a public ranking with its latest edition.
type PublishedRanking struct {
	RankingSummary
	PublishedAt  string // RFC 3339, UTC
	SnapshotHash string
}

// PublishedRankings lists the public rankings with their latest edition, by slug.
func (s *Store) PublishedRankings(ctx context.Context) ([]PublishedRanking, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT r.slug, r.title_zh, r.title_en, r.edition, r.updated_at,
		e.published_at, e.snapshot_hash
		FROM rankings r JOIN editions e ON e.ranking=r.slug AND e.number=r.edition
		WHERE r.edition >= 1 ORDER BY r.slug`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []PublishedRanking
	for rows.Next() {
		var r PublishedRanking
		if err := rows.Scan(&r.Slug, &r.Title.Zh, &r.Title.En, &r.Edition, &r.UpdatedAt, &r.PublishedAt, &r.SnapshotHash); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}
