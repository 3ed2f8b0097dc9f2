package projections

import (
	"context"
	"database/sql"
	"errors"
)

// EditionHash returns the snapshot hash of edition number of ranking, or
// ErrNotFound. It reads one row by its key: a download's validator, checked
// before its bytes are built or found in a cache.
func (s *Store) EditionHash(ctx context.Context, ranking string, number int) (string, error) {
	var hash string
	err := s.db.QueryRowContext(ctx, `SELECT snapshot_hash FROM editions WHERE ranking=? AND number=?`, ranking, number).Scan(&hash)
	if errors.Is(err, sql.ErrNoRows) {
		return "", ErrNotFound
	}
	return hash, err
}
