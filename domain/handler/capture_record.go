package handler

import (
	"context"

	"github.com/crossrank/crossrank/domain"
)

// RecordCapture records the capture of an evidence item's source.
func (h *Handler) RecordCapture(ctx context.Context, a domain.Actor, c domain.RecordCapture) (Result, error) {
	return h.onProposal(ctx, a, c.CommandID, c.Proposal, func(_ *domain.Ranking, _ *domain.Edition, p *domain.Proposal) ([]domain.Change, error) {
		return domain.DecideRecordCapture(p, a, c)
	})
}
