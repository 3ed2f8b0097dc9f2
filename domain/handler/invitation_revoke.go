package handler

import (
	"context"

	"github.com/crossrank/crossrank/domain"
)

// RevokeInvitation voids a pending one-time link.
func (h *Handler) RevokeInvitation(ctx context.Context, a domain.Actor, c domain.RevokeInvitation) (Result, error) {
	return h.onUser(ctx, a, c.CommandID, c.User, func(u *domain.User) ([]domain.Change, error) { return domain.DecideRevokeInvitation(u, a) })
}
