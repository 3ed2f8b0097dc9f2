package handler

import (
	"context"

	"github.com/crossrank/crossrank/domain"
)

// RemoveEvidence drops an uncited evidence item from a draft.
func (h *Handler) RemoveEvidence(ctx context.Context, a domain.Actor, c domain.RemoveEvidence) (Result, error) {
	return h.onProposal(ctx, a, c.CommandID, c.Proposal, func(_ *domain.Ranking, _ *domain.Edition, p *domain.Proposal) ([]domain.Change, error) {
		return domain.DecideRemoveEvidence(p, a, c.Evidence)
	})
}
