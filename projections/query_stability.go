package projections

import (
	"context"
	"encoding/json"

	"github.com/crossrank/crossrank/domain"
)

// Stability returns how solid each rank of an edition is, by entry: the
// entries it could swap with and the first condition (domain.Stability);
// an empty list means stable. An edition projected before stability was
// recorded has no rows until `crossrank rebuild`: the map is then empty.
func (s *Store) Stability(ctx context.Context, ranking string, edition int) (map[string][]domain.Swap, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT entry, swaps FROM edition_stability WHERE ranking=? AND edition=?`, ranking, edition)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string][]domain.Swap{}
	for rows.Next() {
		var entry, raw string
		if err := rows.Scan(&entry, &raw); err != nil {
			return nil, err
		}
		var swaps []domain.Swap
		if err := json.Unmarshal([]byte(raw), &swaps); err != nil {
			return nil, err
		}
		out[entry] = swaps
	}
	return out, rows.Err()
}
