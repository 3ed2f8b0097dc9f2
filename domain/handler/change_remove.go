package handler

import (
	"context"

	"github.com/crossrank/crossrank/domain"
)

// RemoveChange drops a proposed change.
func (h *Handler) RemoveChange(ctx context.Context, a domain.Actor, c domain.RemoveChange) (Result, error) {
	return h.onProposal(ctx, a, c.CommandID, c.Proposal, func(_ *domain.Ranking, _ *domain.Edition, p *domain.Proposal) ([]domain.Change, error) {
		return domain.DecideRemoveChange(p, a, c.Target)
	})
}
