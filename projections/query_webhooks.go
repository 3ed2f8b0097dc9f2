package projections

// WebhookDelivery is one recorded outcome of a webhook delivery.
type WebhookDelivery struct {
	Seq     uint64
	Webhook string // the webhook's aggregate id; '' on rows projected before it was kept
	URL     string // redacted
	Ranking string
	Edition int
	OK      bool
	Status  int // the receiver's HTTP status; 0 when it never answered
	Attempt int
	Error   string
	At      string
}
