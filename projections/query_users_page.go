package projections

import (
	"context"
	"encoding/json"
	"strings"
	"time"
)

// The users page, a page at a time: the users in name order (the table's
// key, so LIMIT/OFFSET walks it), and the tokens and account log of those
// users only.

// UsersPage returns page (1-based) of the users by name, perPage a page,
// and how many users there are.
func (s *Store) UsersPage(ctx context.Context, page, perPage int) ([]UserRow, int, error) {
	var total int
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM users`).Scan(&total); err != nil {
		return nil, 0, err
	}
	per := max(1, perPage)
	rows, err := s.db.QueryContext(ctx, usersPageSQL, per, (max(1, page)-1)*per)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	var out []UserRow
	for rows.Next() {
		var u UserRow
		var roles string
		if err := rows.Scan(&u.Username, &u.DisplayName, &roles, &u.RegisteredAt); err != nil {
			return nil, 0, err
		}
		if err := json.Unmarshal([]byte(roles), &u.Roles); err != nil {
			return nil, 0, err
		}
		out = append(out, u)
	}
	return out, total, rows.Err()
}

// maxAccountLog bounds UserAccountLogOf: the users page shows the latest
// administration of accounts; the audit trail holds all of it.
const maxAccountLog = 500

const usersPageSQL = `SELECT username, display_name, roles, registered_at FROM users ORDER BY username LIMIT ? OFFSET ?`

// inList returns "(?,?,…)" for n values and the values as arguments.
func inList(values []string) (string, []any) {
	args := make([]any, len(values))
	for i, v := range values {
		args[i] = v
	}
	return "(" + strings.TrimSuffix(strings.Repeat("?,", len(values)), ",") + ")", args
}

// TokensOf lists the API tokens of the named users, by user and newest
// first.
func (s *Store) TokensOf(ctx context.Context, users []string) ([]TokenRow, error) {
	if len(users) == 0 {
		return nil, nil
	}
	in, args := inList(users)
	rows, err := s.db.QueryContext(ctx, `SELECT token_id, username, name, issued_at, expires_at, revoked FROM tokens
		WHERE username IN `+in+` ORDER BY username, issued_at DESC, token_id`, args...)
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

// UserAccountLogOf lists, newest first, what was done to the named
// users' accounts by someone other than their owner (who invited, reset,
// granted or revoked what, and when) and each owner's acceptance of a
// one-time link: the users page shows it per user. The rows are the audit
// trail's own, read by aggregate (the index of migration 015), the latest
// maxAccountLog of them.
func (s *Store) UserAccountLogOf(ctx context.Context, users []string) ([]AuditRow, error) {
	if len(users) == 0 {
		return nil, nil
	}
	in, args := inList(users)
	return s.auditRows(ctx, `aggregate IN `+in+` AND kind='user'
		AND (actor<>aggregate OR type LIKE 'crossrank.user.invitation_accepted.%') ORDER BY seq DESC LIMIT ?`,
		append(args, maxAccountLog)...)
}
