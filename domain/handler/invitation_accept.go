package handler

import (
	"context"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// AcceptInvitation sets the password chosen on a one-time link; the actor
// is the person the link was issued to.
func (h *Handler) AcceptInvitation(ctx context.Context, c domain.AcceptInvitation) (Result, error) {
	a := domain.Actor{Name: c.User, Via: events.Via{Method: events.ViaInvitation}}
	return h.onUser(ctx, a, c.CommandID, c.User, func(u *domain.User) ([]domain.Change, error) { return domain.DecideAcceptInvitation(u, c, h.now()) })
}
