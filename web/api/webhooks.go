package api

import (
	"net/http"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/ui"
)

// Delivery is one record of the publish webhook's delivery log.
type Delivery struct {
	Seq     uint64 `json:"seq"`
	Webhook string `json:"webhook"` // "" on records projected before the webhook was kept: no redelivery
	URL     string `json:"url"`     // redacted
	Ranking string `json:"ranking"`
	Edition int    `json:"edition"`
	OK      bool   `json:"ok"`
	Status  int    `json:"status"` // the receiver's HTTP status; 0 when it never answered
	Attempt int    `json:"attempt"`
	Error   string `json:"error,omitempty"`
	At      string `json:"at"`
}

// maxDeliveries is how many delivery records the log answers with.
const maxDeliveries = 200

// deliveries answers GET /api/v1/webhooks/deliveries: the latest delivery
// records, newest first, to publishers (the desk's delivery log).
func deliveries(read ReadModels) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !httpx.Actor(r.Context()).Has(domain.RolePublisher) {
			ui.Fail(w, r, domain.ErrRoleRequired)
			return
		}
		rows, err := read.WebhookDeliveries(r.Context(), maxDeliveries)
		if err != nil {
			ui.Fail(w, r, err)
			return
		}
		out := struct {
			Deliveries []Delivery `json:"deliveries"`
		}{Deliveries: make([]Delivery, 0, len(rows))}
		for _, d := range rows {
			out.Deliveries = append(out.Deliveries, deliveryOf(d))
		}
		httpx.WriteJSON(w, http.StatusOK, out)
	}
}

func deliveryOf(d projections.WebhookDelivery) Delivery {
	return Delivery{Seq: d.Seq, Webhook: d.Webhook, URL: d.URL, Ranking: d.Ranking, Edition: d.Edition, OK: d.OK,
		Status: d.Status, Attempt: d.Attempt, Error: d.Error, At: d.At}
}
