package handler

import (
	"context"

	"github.com/crossrank/crossrank/domain"
)

// Reject closes a proposal by a publisher.
func (h *Handler) Reject(ctx context.Context, a domain.Actor, c domain.Reject) (Result, error) {
	return h.onProposal(ctx, a, c.CommandID, c.Proposal, func(_ *domain.Ranking, _ *domain.Edition, p *domain.Proposal) ([]domain.Change, error) {
		return domain.DecideReject(p, a, c.Reason)
	})
}
