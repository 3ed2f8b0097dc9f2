package command

import (
	"context"
	"net/http"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/web/httpx"
)

// ChatWebhookInput sets a ranking's chat webhook: an incoming-webhook URL
// (Slack or Mattermost) that hears its review requests and publications,
// and the language of the messages (zh, the default, or en); an empty URL
// removes it. PUT /api/v1/rankings/{slug}/chat-webhook and the desk's form.
type ChatWebhookInput struct {
	WithCommandID
	Ranking string `json:"-"`
	URL     string `json:"url"`
	Lang    string `json:"lang,omitempty"`
}

var SetChatWebhook = Action[ChatWebhookInput]{
	Name:      "ranking.chat_webhook",
	NoContent: true,
	Path:      func(r *http.Request, in *ChatWebhookInput) { in.Ranking = rankingPath(r, in.Ranking) },
	Form: func(f *httpx.Form, in *ChatWebhookInput) {
		in.Ranking, in.URL, in.Lang = f.Str("ranking"), f.Str("url"), f.Str("lang")
	},
	Run: func(d *Deps, ctx context.Context, a domain.Actor, commandID string, in *ChatWebhookInput) (handler.Result, error) {
		return d.Commands.SetChatWebhook(ctx, a, domain.SetChatWebhook{CommandID: commandID, Ranking: in.Ranking,
			URL: in.URL, Lang: in.Lang})
	},
	Resource: func(_ *Deps, _ context.Context, in *ChatWebhookInput, _ string) (string, string) {
		return in.Ranking, ""
	},
}
