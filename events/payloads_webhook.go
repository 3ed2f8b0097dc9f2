package events

// The webhook aggregate's events: deliveries of editions to subscribers.

// WebhookDelivered records a successful webhook delivery of an edition.
type WebhookDelivered struct {
	URL      string `json:"url"`
	Ranking  string `json:"ranking"`
	Edition  int    `json:"edition"`
	Status   int    `json:"status"`
	Attempts int    `json:"attempts"`
}

// WebhookRedeliveryRequested asks the webhook's sender to post an edition
// again, whatever its record says; it answers with WebhookDelivered or
// WebhookFailed as for the first delivery.
type WebhookRedeliveryRequested struct {
	Ranking string `json:"ranking"`
	Edition int    `json:"edition"`
}

// WebhookFailed records a failed webhook delivery attempt.
type WebhookFailed struct {
	URL     string `json:"url"`
	Ranking string `json:"ranking"`
	Edition int    `json:"edition"`
	Attempt int    `json:"attempt"`
	Error   string `json:"error"`
}
