package handler

import (
	"context"

	"github.com/crossrank/crossrank/domain"
)

// Withdraw closes a proposal by its author.
func (h *Handler) Withdraw(ctx context.Context, a domain.Actor, c domain.Withdraw) (Result, error) {
	return h.onProposal(ctx, a, c.CommandID, c.Proposal, func(_ *domain.Ranking, _ *domain.Edition, p *domain.Proposal) ([]domain.Change, error) {
		return domain.DecideWithdraw(p, a, c.Reason)
	})
}
