package domain

import (
	"context"

	"github.com/crossrank/crossrank/events"
)

func (h *Handler) onUser(ctx context.Context, a Actor, id, name string, decide func(u *User) ([]Change, error)) (Result, error) {
	if CheckUsername(name) != nil {
		return Result{}, ErrUserMissing
	}
	return h.run(ctx, command{actor: a, id: id, writes: []events.Aggregate{UserID(name)},
		decide: func(s states) ([]Change, error) { return decide(s.user(name)) }})
}

// RegisterUser adds an account.
func (h *Handler) RegisterUser(ctx context.Context, a Actor, id string, c RegisterUser) (Result, error) {
	if err := CheckUsername(c.Username); err != nil {
		return Result{}, err
	}
	return h.onUser(ctx, a, id, c.Username, func(u *User) ([]Change, error) { return DecideRegisterUser(u, a, c) })
}

// GrantRole gives a user a role.
func (h *Handler) GrantRole(ctx context.Context, a Actor, id, user, role string) (Result, error) {
	return h.onUser(ctx, a, id, user, func(u *User) ([]Change, error) { return DecideGrantRole(u, a, role) })
}

// RevokeRole takes a role away.
func (h *Handler) RevokeRole(ctx context.Context, a Actor, id, user, role string) (Result, error) {
	return h.onUser(ctx, a, id, user, func(u *User) ([]Change, error) { return DecideRevokeRole(u, a, role) })
}

// ChangePassword replaces a user's password hash.
func (h *Handler) ChangePassword(ctx context.Context, a Actor, id, user, hash string) (Result, error) {
	return h.onUser(ctx, a, id, user, func(u *User) ([]Change, error) { return DecideChangePassword(u, a, hash) })
}

// IssueToken creates an API token for user.
func (h *Handler) IssueToken(ctx context.Context, a Actor, id, user string, c IssueToken) (Result, error) {
	return h.onUser(ctx, a, id, user, func(u *User) ([]Change, error) { return DecideIssueToken(u, a, c) })
}

// RevokeToken disables an API token.
func (h *Handler) RevokeToken(ctx context.Context, a Actor, id, user, tokenID string) (Result, error) {
	return h.onUser(ctx, a, id, user, func(u *User) ([]Change, error) { return DecideRevokeToken(u, a, tokenID) })
}
