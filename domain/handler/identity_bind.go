package handler

import (
	"context"

	"github.com/crossrank/crossrank/domain"
)

// BindIdentity accepts an invitation by signing in with the OpenID
// Provider; the actor is the person the link was issued to, signed in
// through the provider.
func (h *Handler) BindIdentity(ctx context.Context, c domain.BindIdentity) (Result, error) {
	a := domain.OIDCActor(c.User, c.Issuer)
	return h.onUser(ctx, a, c.CommandID, c.User, func(u *domain.User) ([]domain.Change, error) { return domain.DecideBindIdentity(u, c, h.now()) })
}
