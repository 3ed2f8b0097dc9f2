package projections

import "context"

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

// WebhookDeliveries returns the latest limit delivery records, newest first.
func (s *Store) WebhookDeliveries(ctx context.Context, limit int) ([]WebhookDelivery, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT seq, webhook, url, ranking, edition, ok, status, attempt, error, at
		FROM webhook_deliveries ORDER BY seq DESC LIMIT ?`, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []WebhookDelivery
	for rows.Next() {
		var d WebhookDelivery
		if err := rows.Scan(&d.Seq, &d.Webhook, &d.URL, &d.Ranking, &d.Edition, &d.OK, &d.Status, &d.Attempt, &d.Error, &d.At); err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, rows.Err()
}
