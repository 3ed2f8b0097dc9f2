package handler

import (
	"context"

	"github.com/crossrank/crossrank/domain"
)

// RecordRecheck records what a scheduled re-check found at an evidence
// item's captured source.
func (h *Handler) RecordRecheck(ctx context.Context, a domain.Actor, c domain.RecordRecheck) (Result, error) {
	return h.onProposal(ctx, a, c.CommandID, c.Proposal, func(_ *domain.Ranking, _ *domain.Edition, p *domain.Proposal) ([]domain.Change, error) {
		return domain.DecideRecordRecheck(p, a, c)
	})
}
