package projections

import "context"

// WebhookDeliveryPage returns the delivery records newest first, limit
// from offset, and how many there are in all.
func (s *Store) WebhookDeliveryPage(ctx context.Context, limit, offset int) ([]WebhookDelivery, int, error) {
	var total int
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM webhook_deliveries`).Scan(&total); err != nil {
		return nil, 0, err
	}
	rows, err := s.db.QueryContext(ctx, `SELECT seq, webhook, url, ranking, edition, ok, status, attempt, error, at
		FROM webhook_deliveries ORDER BY seq DESC LIMIT ? OFFSET ?`, limit, offset)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	var out []WebhookDelivery
	for rows.Next() {
		var d WebhookDelivery
		if err := rows.Scan(&d.Seq, &d.Webhook, &d.URL, &d.Ranking, &d.Edition, &d.OK, &d.Status, &d.Attempt, &d.Error, &d.At); err != nil {
			return nil, 0, err
		}
		out = append(out, d)
	}
	return out, total, rows.Err()
}
