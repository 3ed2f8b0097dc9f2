package handler

import (
	"context"

	"github.com/crossrank/crossrank/domain"
)

// CastVote records a reviewer's vote.
func (h *Handler) CastVote(ctx context.Context, a domain.Actor, c domain.CastVote) (Result, error) {
	return h.onProposal(ctx, a, c.CommandID, c.Proposal, func(r *domain.Ranking, ed *domain.Edition, p *domain.Proposal) ([]domain.Change, error) {
		r, err := h.rankingForQuorum(ctx, r, p)
		if err != nil {
			return nil, err
		}
		return domain.DecideCastVote(r, ed, p, a, c)
	})
}
