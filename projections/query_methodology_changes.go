package projections

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"

	"github.com/crossrank/crossrank/events"
)

// MethodologyChanges lists what a methodology proposal changes: what its
// edition published, once published; otherwise what it changed against
// the methodology published when it was last proposed. None: an empty list.
func (s *Store) MethodologyChanges(ctx context.Context, proposal string) ([]events.MethodologyChange, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT kind, target, from_value, to_value FROM methodology_history
		WHERE proposal=? ORDER BY edition, idx`, proposal)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []events.MethodologyChange{}
	for rows.Next() {
		var c events.MethodologyChange
		if err := rows.Scan(&c.Kind, &c.Target, &c.From, &c.To); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil || len(out) > 0 {
		return out, err
	}
	var text string
	err = s.db.QueryRowContext(ctx, `SELECT changes FROM methodology_proposals WHERE proposal=?`, proposal).Scan(&text)
	if errors.Is(err, sql.ErrNoRows) {
		return out, nil
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal([]byte(text), &out); err != nil {
		return nil, err
	}
	return out, nil
}
