package projections

import (
	"context"
	"strings"
)

// RankHistories returns the overall rank and total of each of entries in
// every edition of ranking that ranked it, in edition order; an entry no
// edition ranked is absent. It reads the entries' rows only (index
// edition_moves_by_entry, migration 031), whatever the ranking's size.
func (s *Store) RankHistories(ctx context.Context, ranking string, entries []string) (map[string][]RankPoint, error) {
	out := make(map[string][]RankPoint, len(entries))
	if len(entries) == 0 {
		return out, nil
	}
	args := make([]any, 0, len(entries)+1)
	args = append(args, ranking)
	for _, e := range entries {
		args = append(args, e)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT entry, number, after_rank, after_total FROM edition_moves
		WHERE ranking=? AND entry IN (?`+strings.Repeat(",?", len(entries)-1)+`) ORDER BY entry, number`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var entry string
		var p RankPoint
		if err := rows.Scan(&entry, &p.Edition, &p.Rank, &p.Total); err != nil {
			return nil, err
		}
		out[entry] = append(out[entry], p)
	}
	return out, rows.Err()
}

// EditionPublishers returns who published each edition of ranking, by
// edition number: the entry page's public record names them.
func (s *Store) EditionPublishers(ctx context.Context, ranking string) (map[int]string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT number, publisher FROM editions WHERE ranking=?`, ranking)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int]string{}
	for rows.Next() {
		var n int
		var who string
		if err := rows.Scan(&n, &who); err != nil {
			return nil, err
		}
		out[n] = who
	}
	return out, rows.Err()
}
