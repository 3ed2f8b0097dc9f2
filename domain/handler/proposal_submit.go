package handler

import (
	"context"

	"github.com/crossrank/crossrank/domain"
)

// Submit sends a draft to review.
func (h *Handler) Submit(ctx context.Context, a domain.Actor, c domain.Submit) (Result, error) {
	return h.onProposal(ctx, a, c.CommandID, c.Proposal, submit(a))
}

func submit(a domain.Actor) proposalDecision {
	return func(_ *domain.Ranking, ed *domain.Edition, p *domain.Proposal) ([]domain.Change, error) {
		return domain.DecideSubmit(ed, p, a)
	}
}
