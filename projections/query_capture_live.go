package projections

import "context"

// CapturesSettled returns how many evidence items of a proposal have a
// capture result (captured or failed): the desk's proposal page follows
// it to learn that a pending capture has finished.
func (s *Store) CapturesSettled(ctx context.Context, proposal string) (int, error) {
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM evidence WHERE proposal=? AND capture_state<>'none'`, proposal).Scan(&n)
	return n, err
}
