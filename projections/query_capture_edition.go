package projections

import (
	"context"
	"fmt"
)

// EditionCapture is a captured page that an edition's evidence cites.
type EditionCapture struct {
	SHA256 string // hex SHA-256 of the body, the archive's key
	URL    string // the address that answered
	At     string // when the fetch began, RFC 3339
}

// EditionCaptures lists, once each and by key, the captures of the
// evidence that the changes of editions 1 to number of ranking cite: the
// pages behind every value edition number publishes. ErrNotFound when
// there is no such edition. Only the list is held, a line per capture.
func (s *Store) EditionCaptures(ctx context.Context, ranking string, number int) ([]EditionCapture, error) {
	var ok bool
	if err := s.db.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM editions WHERE ranking=? AND number=?)`,
		ranking, number).Scan(&ok); err != nil {
		return nil, err
	}
	if !ok {
		return nil, ErrNotFound
	}
	rows, err := s.db.QueryContext(ctx, `SELECT e.capture_sha256, MIN(e.capture_final_url), MIN(e.capture_at)
		FROM edition_changes ec JOIN evidence e ON e.proposal=ec.proposal
		WHERE ec.ranking=? AND ec.number<=? AND e.capture_state='captured'
		AND EXISTS (SELECT 1 FROM json_each(ec.evidence) j WHERE j.value=e.evidence_id)
		GROUP BY e.capture_sha256 ORDER BY e.capture_sha256`, ranking, number)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []EditionCapture
	for rows.Next() {
		var c EditionCapture
		if err := rows.Scan(&c.SHA256, &c.URL, &c.At); err != nil {
			return nil, fmt.Errorf("projections: edition captures: %w", err)
		}
		out = append(out, c)
	}
	return out, rows.Err()
}
