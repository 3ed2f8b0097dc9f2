package handler

import (
	"context"

	"github.com/crossrank/crossrank/domain"
)

// Revise opens a new revision.
func (h *Handler) Revise(ctx context.Context, a domain.Actor, c domain.Revise) (Result, error) {
	return h.onProposal(ctx, a, c.CommandID, c.Proposal, func(_ *domain.Ranking, ed *domain.Edition, p *domain.Proposal) ([]domain.Change, error) {
		return domain.DecideRevise(ed, p, a, c.Note)
	})
}
