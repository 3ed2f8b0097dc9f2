package handler

import (
	"context"

	"github.com/crossrank/crossrank/domain"
)

// ProposeScore proposes a score change.
func (h *Handler) ProposeScore(ctx context.Context, a domain.Actor, c domain.ProposeScore) (Result, error) {
	return h.onProposal(ctx, a, c.CommandID, c.Proposal, proposeScore(a, c))
}

func proposeScore(a domain.Actor, c domain.ProposeScore) proposalDecision {
	return func(r *domain.Ranking, ed *domain.Edition, p *domain.Proposal) ([]domain.Change, error) {
		return domain.DecideProposeScore(r, ed, p, a, c)
	}
}

// ProposeAttribute proposes an attribute change.
func (h *Handler) ProposeAttribute(ctx context.Context, a domain.Actor, c domain.ProposeAttribute) (Result, error) {
	return h.onProposal(ctx, a, c.CommandID, c.Proposal, proposeAttribute(a, c))
}

func proposeAttribute(a domain.Actor, c domain.ProposeAttribute) proposalDecision {
	return func(r *domain.Ranking, ed *domain.Edition, p *domain.Proposal) ([]domain.Change, error) {
		return domain.DecideProposeAttribute(r, ed, p, a, c)
	}
}
