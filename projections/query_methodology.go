package projections

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"

	"github.com/crossrank/crossrank/events"
)

// MethodologyChanges lists what a methodology proposal changes: what its
// edition published, once published; otherwise what its current revision
// changes against the methodology published when it was proposed. nil (no
// error) for a proposal that proposes none yet.
func (s *Store) MethodologyChanges(ctx context.Context, proposal string) ([]events.MethodologyChange, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT kind, target, from_value, to_value FROM methodology_history
		WHERE proposal=? ORDER BY edition, idx`, proposal)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []events.MethodologyChange
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
	var raw string
	err = s.db.QueryRowContext(ctx, `SELECT changes FROM methodology_proposals WHERE proposal=?`, proposal).Scan(&raw)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal([]byte(raw), &out); err != nil {
		return nil, err
	}
	return out, nil
}

// MethodologyEdition is one edition that published a ranking's
// methodology: which proposal, when, by whom, and what changed.
type MethodologyEdition struct {
	Edition  int
	Proposal string
	At       string // RFC 3339, UTC
	Actor    string
	Changes  []events.MethodologyChange
}

// MethodologyHistory lists the editions that published a ranking's
// methodology, oldest first.
func (s *Store) MethodologyHistory(ctx context.Context, ranking string) ([]MethodologyEdition, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT edition, proposal, kind, target, from_value, to_value, at, actor
		FROM methodology_history WHERE ranking=? ORDER BY edition, idx`, ranking)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []MethodologyEdition
	for rows.Next() {
		var e MethodologyEdition
		var c events.MethodologyChange
		if err := rows.Scan(&e.Edition, &e.Proposal, &c.Kind, &c.Target, &c.From, &c.To, &e.At, &e.Actor); err != nil {
			return nil, err
		}
		if n := len(out); n > 0 && out[n-1].Edition == e.Edition {
			out[n-1].Changes = append(out[n-1].Changes, c)
			continue
		}
		e.Changes = []events.MethodologyChange{c}
		out = append(out, e)
	}
	return out, rows.Err()
}
