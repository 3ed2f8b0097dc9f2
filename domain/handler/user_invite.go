package handler

import (
	"context"

	"github.com/crossrank/crossrank/domain"
)

// InviteUser adds an account with a one-time link.
func (h *Handler) InviteUser(ctx context.Context, a domain.Actor, c domain.InviteUser) (Result, error) {
	if err := domain.CheckUsername(c.Username); err != nil {
		return Result{}, err
	}
	return h.onUser(ctx, a, c.CommandID, c.Username, func(u *domain.User) ([]domain.Change, error) { return domain.DecideInviteUser(u, a, c, h.now()) })
}
