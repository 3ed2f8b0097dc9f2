package api

import (
	"net/http"
	"strconv"

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

// maxDeliveries is how many delivery records a page of the log holds.
const maxDeliveries = 200

// Deliveries is one page of the delivery log, newest first: total records
// in pages of per_page.
type Deliveries struct {
	Deliveries []Delivery `json:"deliveries"`
	Total      int        `json:"total"`
	Page       int        `json:"page"`
	Pages      int        `json:"pages"`
	PerPage    int        `json:"per_page"`
}

// deliveries answers GET /api/v1/webhooks/deliveries?page=N: a page of the
// delivery records, newest first (the first when page is absent), to
// publishers (the desk's delivery log); a page past the last is 404.
func deliveries(read ReadModels) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !httpx.Actor(r.Context()).Has(domain.RolePublisher) {
			ui.Fail(w, r, domain.ErrRoleRequired)
			return
		}
		page := 1
		if s := r.URL.Query().Get("page"); s != "" {
			n, err := strconv.Atoi(s)
			if err != nil || n < 1 {
				ui.Fail(w, r, &httpx.BadField{Field: "page", Code: "field.whole_number"})
				return
			}
			page = n
		}
		rows, total, err := read.WebhookDeliveryPage(r.Context(), maxDeliveries, (page-1)*maxDeliveries)
		if err != nil {
			ui.Fail(w, r, err)
			return
		}
		out := Deliveries{Deliveries: make([]Delivery, 0, len(rows)), Total: total, Page: page,
			Pages: max(1, (total+maxDeliveries-1)/maxDeliveries), PerPage: maxDeliveries}
		if out.Page > out.Pages {
			ui.Fail(w, r, projections.ErrNotFound)
			return
		}
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
