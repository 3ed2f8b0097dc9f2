package handler

import (
	"context"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// SetChatWebhook sets or removes a ranking's chat webhook.
func (h *Handler) SetChatWebhook(ctx context.Context, a domain.Actor, c domain.SetChatWebhook) (Result, error) {
	if !events.ValidID(c.Ranking) {
		return Result{}, domain.ErrRankingMissing
	}
	return h.run(ctx, command{actor: a, commandID: c.CommandID, writes: []events.Aggregate{domain.RankingID(c.Ranking)},
		decide: func(s states) ([]domain.Change, error) {
			return domain.DecideSetChatWebhook(s.ranking(c.Ranking), a, c)
		}})
}
