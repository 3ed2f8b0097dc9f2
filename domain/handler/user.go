package handler

import (
	"context"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

func (h *Handler) onUser(ctx context.Context, a domain.Actor, commandID, name string, decide func(u *domain.User) ([]domain.Change, error)) (Result, error) {
	if domain.CheckUsername(name) != nil {
		return Result{}, domain.ErrUserMissing
	}
	return h.run(ctx, command{actor: a, commandID: commandID, writes: []events.Aggregate{domain.UserID(name)},
		decide: func(s states) ([]domain.Change, error) { return decide(s.user(name)) }})
}
