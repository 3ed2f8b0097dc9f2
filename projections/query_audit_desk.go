package projections

import (
	"context"
	"database/sql"
	"encoding/json"
	"time"

	"github.com/crossrank/crossrank/domain"
)

// The desk's administrative pages (publishing, users, the desk entry page)
// read these besides the audit trail.

// TokenRow is an API token as the users and account pages list it; its
// hash never leaves the event store.
type TokenRow struct {
	ID        string
	Username  string
	Name      string
	IssuedAt  time.Time
	ExpiresAt time.Time // zero: does not expire
	Revoked   bool
}

// Expired reports whether the token has expired at now.
func (t TokenRow) Expired(now time.Time) bool {
	return !t.ExpiresAt.IsZero() && !now.Before(t.ExpiresAt)
}

// Tokens lists the API tokens of username ("" for every user), by user and
// newest first.
func (s *Store) Tokens(ctx context.Context, username string) ([]TokenRow, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT token_id, username, name, issued_at, expires_at, revoked FROM tokens
		WHERE ?='' OR username=? ORDER BY username, issued_at DESC, token_id`, username, username)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []TokenRow
	for rows.Next() {
		var t TokenRow
		var issued, expires string
		if err := rows.Scan(&t.ID, &t.Username, &t.Name, &issued, &expires, &t.Revoked); err != nil {
			return nil, err
		}
		t.IssuedAt, _ = time.Parse(time.RFC3339Nano, issued)
		t.ExpiresAt, _ = time.Parse(time.RFC3339, expires) // "" stays zero
		out = append(out, t)
	}
	return out, rows.Err()
}

// ProposalsWithStatus lists a ranking's proposals in one status, oldest
// change first (the order they became ready).
func (s *Store) ProposalsWithStatus(ctx context.Context, ranking string, status domain.Status) ([]ProposalSummary, error) {
	return s.proposalList(ctx, `WHERE ranking=? AND status=? ORDER BY updated_at, id`, ranking, string(status))
}

// EntryChange is one value an edition changed on an entry.
type EntryChange struct {
	Edition     int
	PublishedAt time.Time
	Proposal    string
	Target      string // "score:<criterion>" or "attr:<key>"
	FromScore   *int
	ToScore     *int
	FromTags    []string
	ToTags      []string
}

// EntryChanges lists every change editions made to an entry, newest
// edition first, in each edition's order.
func (s *Store) EntryChanges(ctx context.Context, ranking, entry string) ([]EntryChange, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT c.number, ed.published_at, c.proposal, c.target,
		c.from_score, c.to_score, c.from_tags, c.to_tags
		FROM edition_changes c JOIN editions ed ON ed.ranking=c.ranking AND ed.number=c.number
		WHERE c.ranking=? AND c.entry=? ORDER BY c.number DESC, c.pos`, ranking, entry)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []EntryChange
	for rows.Next() {
		var c EntryChange
		var at string
		var fs, ts sql.NullInt64
		var ft, tt sql.NullString
		if err := rows.Scan(&c.Edition, &at, &c.Proposal, &c.Target, &fs, &ts, &ft, &tt); err != nil {
			return nil, err
		}
		c.PublishedAt, _ = time.Parse(time.RFC3339Nano, at)
		c.FromScore, c.ToScore = intPtr(fs), intPtr(ts)
		if ft.Valid {
			_ = json.Unmarshal([]byte(ft.String), &c.FromTags)
		}
		if tt.Valid {
			_ = json.Unmarshal([]byte(tt.String), &c.ToTags)
		}
		out = append(out, c)
	}
	return out, rows.Err()
}
