package handler

import (
	"context"

	"github.com/crossrank/crossrank/domain"
)

// AddEvidence attaches evidence to a draft.
func (h *Handler) AddEvidence(ctx context.Context, a domain.Actor, c domain.AddEvidence) (Result, error) {
	return h.onProposal(ctx, a, c.CommandID, c.Proposal, addEvidence(a, c))
}

func addEvidence(a domain.Actor, c domain.AddEvidence) proposalDecision {
	return func(_ *domain.Ranking, _ *domain.Edition, p *domain.Proposal) ([]domain.Change, error) {
		return domain.DecideAddEvidence(p, a, c)
	}
}
