package handler

import (
	"context"

	"github.com/crossrank/crossrank/domain"
)

// ChangePassword replaces a user's password hash.
func (h *Handler) ChangePassword(ctx context.Context, a domain.Actor, c domain.ChangePassword) (Result, error) {
	return h.onUser(ctx, a, c.CommandID, c.User, func(u *domain.User) ([]domain.Change, error) {
		return domain.DecideChangePassword(u, a, c.PasswordHash)
	})
}
