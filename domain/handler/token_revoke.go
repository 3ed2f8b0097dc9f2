package handler

import (
	"context"

	"github.com/crossrank/crossrank/domain"
)

// RevokeToken disables an API token.
func (h *Handler) RevokeToken(ctx context.Context, a domain.Actor, c domain.RevokeToken) (Result, error) {
	return h.onUser(ctx, a, c.CommandID, c.User, func(u *domain.User) ([]domain.Change, error) { return domain.DecideRevokeToken(u, a, c.TokenID) })
}
