package handler

import (
	"context"

	"github.com/crossrank/crossrank/domain"
)

// ProposeMethodology sets a methodology proposal's methodology.
func (h *Handler) ProposeMethodology(ctx context.Context, a domain.Actor, c domain.ProposeMethodology) (Result, error) {
	return h.onProposal(ctx, a, c.CommandID, c.Proposal, func(r *domain.Ranking, ed *domain.Edition, p *domain.Proposal) ([]domain.Change, error) {
		return domain.DecideProposeMethodology(r, ed, p, a, c)
	})
}
