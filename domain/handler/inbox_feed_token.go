package handler

import (
	"context"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// SetFeedToken sets or revokes the actor's inbox feed token.
func (h *Handler) SetFeedToken(ctx context.Context, a domain.Actor, c domain.SetFeedToken) (Result, error) {
	if !events.ValidID(c.User) {
		return Result{}, domain.ErrUserMissing
	}
	return h.run(ctx, command{actor: a, commandID: c.CommandID, writes: []events.Aggregate{domain.UserID(c.User)},
		decide: func(s states) ([]domain.Change, error) { return domain.DecideSetFeedToken(s.user(c.User), a, c) }})
}
