package events

// A ranking's chat webhook: an incoming-webhook URL (Slack- or
// Mattermost-compatible) that hears the ranking's review requests and
// publications, and the webhook aggregate's record of each post.

// ChatWebhookSet names (or, with an empty URL, removes) a ranking's chat
// webhook and the language of its messages ("zh" or "en").
type ChatWebhookSet struct {
	URL  string `json:"url"`
	Lang string `json:"lang,omitempty"`
}

// ChatPosted records that a chat webhook accepted the message about the
// event Source (its id). URL is the redacted URL.
type ChatPosted struct {
	URL      string `json:"url"`
	Ranking  string `json:"ranking"`
	Source   string `json:"source"`
	Status   int    `json:"status"`
	Attempts int    `json:"attempts"`
}

// ChatFailed records that the message about Source was given up on.
type ChatFailed struct {
	URL     string `json:"url"`
	Ranking string `json:"ranking"`
	Source  string `json:"source"`
	Attempt int    `json:"attempt"`
	Error   string `json:"error"`
}
