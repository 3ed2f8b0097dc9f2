package projections

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/crossrank/crossrank/domain"
)

// CrossValidated lists the ids of a ranking's cross-validated proposals.
func (s *Store) CrossValidated(ctx context.Context, ranking string) ([]string, error) {
	return s.strings(ctx, `SELECT id FROM proposals WHERE ranking=? AND status='cross_validated' ORDER BY id`, ranking)
}

// TokenOwner returns the username holding an API token.
func (s *Store) TokenOwner(ctx context.Context, tokenID string) (string, error) {
	var user string
	err := s.db.QueryRowContext(ctx, `SELECT username FROM tokens WHERE token_id=?`, tokenID).Scan(&user)
	if errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("token %s: %w", tokenID, domain.ErrNotFound)
	}
	return user, err
}

// UserRow is a user as the users page lists it.
type UserRow struct {
	Username     string
	DisplayName  string
	Roles        []string
	RegisteredAt string
}

// Users lists every user by name.
func (s *Store) Users(ctx context.Context) ([]UserRow, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT username, display_name, roles, registered_at FROM users ORDER BY username`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []UserRow
	for rows.Next() {
		var u UserRow
		var roles string
		if err := rows.Scan(&u.Username, &u.DisplayName, &roles, &u.RegisteredAt); err != nil {
			return nil, err
		}
		_ = json.Unmarshal([]byte(roles), &u.Roles)
		out = append(out, u)
	}
	return out, rows.Err()
}

func (s *Store) strings(ctx context.Context, q string, args ...any) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// IdentityUser returns the username the OpenID Provider's subject sub at
// issuer iss signs in as, or an error wrapping domain.ErrNotFound.
func (s *Store) IdentityUser(ctx context.Context, iss, sub string) (string, error) {
	var user string
	err := s.db.QueryRowContext(ctx, `SELECT username FROM user_identities WHERE issuer=? AND subject=?`, iss, sub).Scan(&user)
	if errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("identity: %w", domain.ErrNotFound)
	}
	return user, err
}
