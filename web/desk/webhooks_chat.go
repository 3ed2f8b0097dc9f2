package desk

import (
	"cmp"
	"context"
	"net/http"

	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/web/command"
	"github.com/crossrank/crossrank/web/paths"
	"github.com/crossrank/crossrank/web/ui"
)

// The rankings' chat webhooks, set on the webhooks page: a ranking, an
// incoming-webhook URL and the language of its messages.

// chatRanking is one choice of the chat form's ranking select.
type chatRanking struct {
	Slug  string
	Title string
}

// chatRankings lists the rankings the chat form offers.
func (d *Desk) chatRankings(ctx context.Context, p ui.Page) ([]chatRanking, error) {
	rs, err := d.read.Rankings(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]chatRanking, 0, len(rs))
	for _, r := range rs {
		out = append(out, chatRanking{Slug: r.Slug, Title: cmp.Or(r.Title.In(p.Lang), r.Slug)})
	}
	return out, nil
}

func chatWebhookSet(*http.Request, *command.ChatWebhookInput, handler.Result) string {
	return paths.Webhooks + "?done=chat"
}

func (d *Desk) chatWebhookFailed(w http.ResponseWriter, r *http.Request, _ *command.ChatWebhookInput, st ui.FormState, status int) {
	d.renderWebhooks(w, r, status, st)
}
