package projections

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/crossrank/crossrank/domain"
)

// Stability returns how solid each rank of an edition is, by entry
// (domain.Stability of the edition's stored snapshot); empty when the
// ranking has no such edition. It is computed on demand, not projected: an
// edition's snapshot never changes, so the answer is memoised per ranking
// and edition for the few editions read last (the current ones). The map
// is shared by every caller: read it, never change it.
func (s *Store) Stability(ctx context.Context, ranking string, edition int) (map[string]domain.EntryStability, error) {
	return s.stability.get(ranking, edition, func() (map[string]domain.EntryStability, error) {
		// Not the caller's context: the answer is shared with whoever
		// waits for it, and a cancelled request must not fail theirs.
		var raw string
		err := s.db.QueryRowContext(context.WithoutCancel(ctx),
			`SELECT snapshot FROM editions WHERE ranking=? AND number=?`, ranking, edition).Scan(&raw)
		if errors.Is(err, sql.ErrNoRows) {
			return map[string]domain.EntryStability{}, nil
		}
		if err != nil {
			return nil, err
		}
		var snap domain.Snapshot
		if err := json.Unmarshal([]byte(raw), &snap); err != nil {
			return nil, fmt.Errorf("edition %s/%d: snapshot: %w", ranking, edition, err)
		}
		return domain.Stability(snap), nil
	})
}

// The stability memo is an editionMemo; its names stay for its test.
type (
	stabilityMemo = editionMemo[map[string]domain.EntryStability]
	stabilityKey  = editionKey
)

const stabilityMemoSize = editionMemoSize
