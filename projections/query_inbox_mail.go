package projections

import "context"

// InboxItem is an inbox row with the user it concerns.
type InboxItem struct {
	User string
	InboxRow
}

// InboxAt returns the inbox rows the event at seq made, for every user.
func (s *Store) InboxAt(ctx context.Context, seq uint64) ([]InboxItem, error) {
	return s.inboxItems(ctx, `seq=? ORDER BY user, kind`, seq)
}

// InboxBetween returns a user's inbox rows after seq after up to and with
// seq upto, oldest first, at most limit.
func (s *Store) InboxBetween(ctx context.Context, user string, after, upto uint64, limit int) ([]InboxItem, error) {
	return s.inboxItems(ctx, `user=? AND seq>? AND seq<=? ORDER BY seq, kind LIMIT ?`, user, after, upto, limit)
}

func (s *Store) inboxItems(ctx context.Context, where string, args ...any) ([]InboxItem, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT user, seq, kind, ranking, proposal, actor, at, detail FROM inbox WHERE `+where, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []InboxItem
	for rows.Next() {
		var r InboxItem
		if err := rows.Scan(&r.User, &r.Seq, &r.Kind, &r.Ranking, &r.Proposal, &r.Actor, &r.At, &r.Detail); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}
