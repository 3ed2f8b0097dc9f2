package handler

import (
	"context"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// RequestRedelivery records a publisher's request to post an edition to a
// webhook again; the webhook's sender does the posting.
func (h *Handler) RequestRedelivery(ctx context.Context, a domain.Actor, c domain.RequestRedelivery) (Result, error) {
	if !domain.ValidWebhookID(c.Webhook) {
		return Result{}, domain.ErrWebhookMissing
	}
	return h.run(ctx, command{actor: a, commandID: c.CommandID,
		writes: []events.Aggregate{domain.WebhookID(c.Webhook)}, reads: []events.Aggregate{domain.EditionID(c.Ranking)},
		decide: func(s states) ([]domain.Change, error) {
			return domain.DecideRequestRedelivery(s.edition(c.Ranking), a, c)
		}})
}
