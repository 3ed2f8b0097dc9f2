package handler

import (
	"context"

	"github.com/crossrank/crossrank/domain"
)

// AddComment comments on a proposal.
func (h *Handler) AddComment(ctx context.Context, a domain.Actor, c domain.AddComment) (Result, error) {
	return h.onProposal(ctx, a, c.CommandID, c.Proposal, func(_ *domain.Ranking, _ *domain.Edition, p *domain.Proposal) ([]domain.Change, error) {
		return domain.DecideAddComment(p, a, c)
	})
}
