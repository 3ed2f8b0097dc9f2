package handler

import (
	"context"

	"github.com/crossrank/crossrank/domain"
)

// IssueToken creates an API token for user.
func (h *Handler) IssueToken(ctx context.Context, a domain.Actor, c domain.IssueToken) (Result, error) {
	return h.onUser(ctx, a, c.CommandID, c.User, func(u *domain.User) ([]domain.Change, error) { return domain.DecideIssueToken(u, a, c) })
}
