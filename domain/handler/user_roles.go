package handler

import (
	"context"

	"github.com/crossrank/crossrank/domain"
)

// GrantRole gives a user a role.
func (h *Handler) GrantRole(ctx context.Context, a domain.Actor, c domain.GrantRole) (Result, error) {
	return h.onUser(ctx, a, c.CommandID, c.User, func(u *domain.User) ([]domain.Change, error) { return domain.DecideGrantRole(u, a, c.Role) })
}

// RevokeRole takes a role away.
func (h *Handler) RevokeRole(ctx context.Context, a domain.Actor, c domain.RevokeRole) (Result, error) {
	return h.onUser(ctx, a, c.CommandID, c.User, func(u *domain.User) ([]domain.Change, error) { return domain.DecideRevokeRole(u, a, c.Role) })
}
