package handler

import (
	"context"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// MarkInboxRead marks the actor's inbox read.
func (h *Handler) MarkInboxRead(ctx context.Context, a domain.Actor, c domain.MarkInboxRead) (Result, error) {
	if !events.ValidID(c.User) {
		return Result{}, domain.ErrUserMissing
	}
	return h.run(ctx, command{actor: a, commandID: c.CommandID, writes: []events.Aggregate{domain.UserID(c.User)},
		decide: func(s states) ([]domain.Change, error) { return domain.DecideMarkInboxRead(s.user(c.User), a, c) }})
}
