package handler

import (
	"context"

	"github.com/crossrank/crossrank/domain"
)

// DismissVeto lifts a reviewer's veto by a publisher.
func (h *Handler) DismissVeto(ctx context.Context, a domain.Actor, c domain.DismissVeto) (Result, error) {
	return h.onProposal(ctx, a, c.CommandID, c.Proposal, func(r *domain.Ranking, ed *domain.Edition, p *domain.Proposal) ([]domain.Change, error) {
		r, err := h.rankingForQuorum(ctx, r, p)
		if err != nil {
			return nil, err
		}
		return domain.DecideDismissVeto(r, ed, p, a, c)
	})
}
