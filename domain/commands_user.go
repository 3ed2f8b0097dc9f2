package domain

import (
	"context"

	"github.com/crossrank/crossrank/events"
)

func (h *Handler) onUser(ctx context.Context, a Actor, commandID, name string, decide func(u *User) ([]Change, error)) (Result, error) {
	if CheckUsername(name) != nil {
		return Result{}, ErrUserMissing
	}
	return h.run(ctx, command{actor: a, commandID: commandID, writes: []events.Aggregate{UserID(name)},
		decide: func(s states) ([]Change, error) { return decide(s.user(name)) }})
}

// RegisterUser adds an account.
func (h *Handler) RegisterUser(ctx context.Context, a Actor, c RegisterUser) (Result, error) {
	if err := CheckUsername(c.Username); err != nil {
		return Result{}, err
	}
	return h.onUser(ctx, a, c.CommandID, c.Username, func(u *User) ([]Change, error) { return DecideRegisterUser(u, a, c) })
}

// GrantRole gives a user a role.
func (h *Handler) GrantRole(ctx context.Context, a Actor, c GrantRole) (Result, error) {
	return h.onUser(ctx, a, c.CommandID, c.User, func(u *User) ([]Change, error) { return DecideGrantRole(u, a, c.Role) })
}

// RevokeRole takes a role away.
func (h *Handler) RevokeRole(ctx context.Context, a Actor, c RevokeRole) (Result, error) {
	return h.onUser(ctx, a, c.CommandID, c.User, func(u *User) ([]Change, error) { return DecideRevokeRole(u, a, c.Role) })
}

// ChangePassword replaces a user's password hash.
func (h *Handler) ChangePassword(ctx context.Context, a Actor, c ChangePassword) (Result, error) {
	return h.onUser(ctx, a, c.CommandID, c.User, func(u *User) ([]Change, error) { return DecideChangePassword(u, a, c.PasswordHash) })
}

// IssueToken creates an API token for user.
func (h *Handler) IssueToken(ctx context.Context, a Actor, c IssueToken) (Result, error) {
	return h.onUser(ctx, a, c.CommandID, c.User, func(u *User) ([]Change, error) { return DecideIssueToken(u, a, c) })
}

// RevokeToken disables an API token.
func (h *Handler) RevokeToken(ctx context.Context, a Actor, c RevokeToken) (Result, error) {
	return h.onUser(ctx, a, c.CommandID, c.User, func(u *User) ([]Change, error) { return DecideRevokeToken(u, a, c.TokenID) })
}
