package handler

import (
	"context"

	"github.com/crossrank/crossrank/domain"
)

// ResetPassword voids a user's password and issues a one-time link.
func (h *Handler) ResetPassword(ctx context.Context, a domain.Actor, c domain.ResetPassword) (Result, error) {
	return h.onUser(ctx, a, c.CommandID, c.User, func(u *domain.User) ([]domain.Change, error) { return domain.DecideResetPassword(u, a, c, h.now()) })
}
