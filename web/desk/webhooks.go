package desk

import (
	"net/http"
	"strconv"
	"time"

	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/web/command"
	"github.com/crossrank/crossrank/web/paths"
	"github.com/crossrank/crossrank/web/ui"
)

// webhookRows is how many delivery records a page lists.
const webhookRows = 100

// webhooksView is the model of the delivery log.
type webhooksView struct {
	ui.Page
	Rows  []webhookRowView
	Pager ui.Pager
	State ui.FormState // the redeliver or chat form's, after a refusal
	// Rankings are the rankings whose chat webhook the chat form sets.
	Rankings []chatRanking
}

// webhookRowView is one delivery record with its redeliver form.
type webhookRowView struct {
	Seq     string
	At      string
	URL     string
	Webhook string // "" on rows older than the column: no redeliver form
	Ranking string
	Edition string
	OK      bool
	Outcome string
}

// serveWebhooks lists the webhook deliveries.
func (d *Desk) serveWebhooks(w http.ResponseWriter, r *http.Request) {
	d.renderWebhooks(w, r, http.StatusOK, ui.FormState{})
}

func (d *Desk) renderWebhooks(w http.ResponseWriter, r *http.Request, status int, st ui.FormState) {
	v := webhooksView{Page: ui.PageOf(r, "webhooks.title", "webhooks"), State: st}
	var err error
	if v.Rankings, err = d.chatRankings(r.Context(), v.Page); err != nil {
		ui.Fail(w, r, err)
		return
	}
	v.Notice = doneNotice(v.Lang, "webhooks", r)
	page := ui.RequestedPage(r.URL.Query())
	rows, total, err := d.read.WebhookDeliveryPage(r.Context(), webhookRows, (page-1)*webhookRows)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	v.Pager = ui.NewPager(total, page, webhookRows, func(n int) string { return ui.PageHref(r.URL, n) })
	for _, row := range rows {
		rv := webhookRowView{Seq: strconv.FormatUint(row.Seq, 10), URL: row.URL, Webhook: row.Webhook,
			Ranking: row.Ranking, Edition: strconv.Itoa(row.Edition), OK: row.OK}
		if at, err := time.Parse(time.RFC3339Nano, row.At); err == nil {
			rv.At = v.DateTime(at)
		}
		if row.OK {
			rv.Outcome = plural(v.Lang, "webhooks.delivered", row.Attempt, row.Status, row.Attempt)
		} else {
			rv.Outcome = v.T("webhooks.failed", row.Attempt, row.Error)
		}
		v.Rows = append(v.Rows, rv)
	}
	ui.Render(w, r, status, webhooksPage(v))
}

func webhookRedelivered(*http.Request, *command.RedeliverInput, handler.Result) string {
	return paths.Webhooks + "?done=redelivery"
}

func (d *Desk) redeliverFailed(w http.ResponseWriter, r *http.Request, _ *command.RedeliverInput, st ui.FormState, status int) {
	d.renderWebhooks(w, r, status, st)
}
