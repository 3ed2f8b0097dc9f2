package command

import (
	"context"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/web/httpx"
)

// RedeliverInput asks a webhook's sender to post an edition again: the
// desk's redeliver button and POST /api/v1/webhooks/redeliver.
type RedeliverInput struct {
	WithCommandID
	Webhook string `json:"webhook"` // the delivery record's webhook id, "wh-…"
	Ranking string `json:"ranking"`
	Edition int    `json:"edition"`
}

// Redeliver records a publisher's request to redeliver an edition.
var Redeliver = Action[RedeliverInput]{
	Name: "webhook.redeliver",
	Form: func(f *httpx.Form, in *RedeliverInput) {
		in.Webhook, in.Ranking, in.Edition = f.Str("webhook"), f.Str("ranking"), f.Int("edition")
	},
	Run: func(d *Deps, ctx context.Context, a domain.Actor, commandID string, in *RedeliverInput) (handler.Result, error) {
		return d.Commands.RequestRedelivery(ctx, a, domain.RequestRedelivery{CommandID: commandID, Webhook: in.Webhook,
			Ranking: in.Ranking, Edition: in.Edition})
	},
	Resource: func(_ *Deps, _ context.Context, in *RedeliverInput, _ string) (string, string) {
		return in.Webhook, "/api/v1/webhooks/deliveries"
	},
}
