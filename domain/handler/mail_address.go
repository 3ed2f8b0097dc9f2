package handler

import (
	"context"

	"github.com/crossrank/crossrank/domain"
)

// RecordMailAddress records that a user's mail address was confirmed or
// erased.
func (h *Handler) RecordMailAddress(ctx context.Context, a domain.Actor, c domain.RecordMailAddress) (Result, error) {
	return h.onUser(ctx, a, c.CommandID, c.User, func(u *domain.User) ([]domain.Change, error) {
		return domain.DecideRecordMailAddress(u, a, c)
	})
}
