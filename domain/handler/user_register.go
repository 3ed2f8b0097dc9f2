package handler

import (
	"context"

	"github.com/crossrank/crossrank/domain"
)

// RegisterUser adds an account.
func (h *Handler) RegisterUser(ctx context.Context, a domain.Actor, c domain.RegisterUser) (Result, error) {
	if err := domain.CheckUsername(c.Username); err != nil {
		return Result{}, err
	}
	return h.onUser(ctx, a, c.CommandID, c.Username, func(u *domain.User) ([]domain.Change, error) { return domain.DecideRegisterUser(u, a, c) })
}
