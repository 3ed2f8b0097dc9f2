package domain

import (
	"github.com/crossrank/crossrank/events"
)

// SetChatWebhook names the incoming-webhook URL (Slack- or
// Mattermost-compatible) that hears a ranking's review requests and
// publications, and the language of its messages; an empty URL removes it.
type SetChatWebhook struct {
	CommandID string
	Ranking   string
	URL       string
	Lang      string // "zh" or "en"; "" : "zh", the newsroom's
}

// ChatLangs are the languages a chat webhook's messages may be in.
var ChatLangs = []string{"zh", "en"}

// DecideSetChatWebhook lets a publisher set or remove a ranking's chat
// webhook. The URL must be http(s); whether its address may be reached is
// the sender's to check, on every post.
func DecideSetChatWebhook(r *Ranking, a Actor, c SetChatWebhook) ([]Change, error) {
	if err := a.require(RolePublisher); err != nil {
		return nil, err
	}
	if !r.Exists() {
		return nil, ErrRankingMissing
	}
	if err := CheckURL("url", c.URL); err != nil {
		return nil, err
	}
	lang := c.Lang
	if lang == "" {
		lang = "zh"
	}
	if lang != "zh" && lang != "en" {
		return nil, invalid("lang", "chat.lang", nil)
	}
	if c.URL == "" {
		lang = ""
	}
	if r.ChatURL == c.URL && r.ChatLang == lang {
		return nil, invalid("url", "chat.unchanged", nil)
	}
	return one(RankingID(r.Slug), &events.ChatWebhookSet{URL: c.URL, Lang: lang}), nil
}
