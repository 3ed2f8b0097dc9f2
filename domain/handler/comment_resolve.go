package handler

import (
	"context"

	"github.com/crossrank/crossrank/domain"
)

// ResolveComment resolves a comment.
func (h *Handler) ResolveComment(ctx context.Context, a domain.Actor, c domain.ResolveComment) (Result, error) {
	return h.onProposal(ctx, a, c.CommandID, c.Proposal, func(_ *domain.Ranking, _ *domain.Edition, p *domain.Proposal) ([]domain.Change, error) {
		return domain.DecideResolveComment(p, a, c)
	})
}
