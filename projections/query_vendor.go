package projections

import (
	"context"
	"fmt"
)

// Reply is a vendor's statement as the public entry page shows it: the
// vendor by its display name only.
type Reply struct {
	ID        string `json:"id"`
	Vendor    string `json:"vendor"` // the vendor account's display name
	Criterion string `json:"criterion,omitempty"`
	TextEn    string `json:"text_en,omitempty"`
	TextZh    string `json:"text_zh,omitempty"`
	WrittenAt string `json:"written_at"`
	Hidden    bool   `json:"hidden"`
	Reason    string `json:"hidden_reason,omitempty"` // hidden: the editors' public reason, in place of the words
	HiddenAt  string `json:"hidden_at,omitempty"`
}

// Replies returns the statements about an entry, the whole entry's first,
// then by criterion, each vendor's in the order first written. A hidden
// statement comes without its words.
func (s *Store) Replies(ctx context.Context, ranking, entry string) ([]Reply, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT r.id, coalesce(nullif(u.display_name, ''), r.vendor), r.criterion,
		r.text_en, r.text_zh, r.written_at, r.hidden_seq > 0, r.reason, r.hidden_at
		FROM replies r LEFT JOIN users u ON u.username = r.vendor
		WHERE r.ranking=? AND r.entry=? ORDER BY r.criterion <> '', r.criterion, r.written_seq`, ranking, entry)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Reply{}
	for rows.Next() {
		var r Reply
		if err := rows.Scan(&r.ID, &r.Vendor, &r.Criterion, &r.TextEn, &r.TextZh, &r.WrittenAt, &r.Hidden, &r.Reason, &r.HiddenAt); err != nil {
			return nil, err
		}
		if r.Hidden {
			r.TextEn, r.TextZh = "", ""
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// ContactEvent is one row of an entry's public contact timeline.
type ContactEvent struct {
	Seq     uint64 `json:"seq"`
	At      string `json:"at"`
	Kind    string `json:"kind"`
	Vendor  string `json:"vendor"` // the vendor account's display name
	Subject string `json:"subject,omitempty"`
	Detail  string `json:"detail,omitempty"`
	Text    string `json:"text,omitempty"`
}

// publicContact is the condition on contact_timeline c that keeps the
// rows the public may read: the vendor's standing and its statements, a
// proposal of theirs once an edition published it, and the evidence they
// submitted for it then. Drafts, proposals in review, rejected or
// withdrawn ones and embargoed previews stay on the desk: the timeline is
// public while they are not.
const publicContact = `(c.kind IN ('vendor_invited', 'reply_written', 'reply_hidden', 'proposal_published')
	OR c.kind = 'evidence_submitted' AND EXISTS (SELECT 1 FROM contact_timeline p
		WHERE p.ranking = c.ranking AND p.entry = c.entry AND p.kind = 'proposal_published' AND p.subject = c.subject))`

// ContactTimeline returns a page of an entry's public contact timeline
// (publicContact), oldest first, limit from offset, and how many rows
// there are in all.
func (s *Store) ContactTimeline(ctx context.Context, ranking, entry string, limit, offset int) ([]ContactEvent, int, error) {
	var total int
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM contact_timeline c WHERE c.ranking=? AND c.entry=? AND `+publicContact,
		ranking, entry).Scan(&total); err != nil {
		return nil, 0, err
	}
	rows, err := s.db.QueryContext(ctx, `SELECT c.seq, c.at, c.kind, coalesce(nullif(u.display_name, ''), c.vendor),
		c.subject, c.detail, c.text FROM contact_timeline c LEFT JOIN users u ON u.username = c.vendor
		WHERE c.ranking=? AND c.entry=? AND `+publicContact+` ORDER BY c.seq, c.kind LIMIT ? OFFSET ?`, ranking, entry, limit, offset)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	out := []ContactEvent{}
	for rows.Next() {
		var c ContactEvent
		if err := rows.Scan(&c.Seq, &c.At, &c.Kind, &c.Vendor, &c.Subject, &c.Detail, &c.Text); err != nil {
			return nil, 0, err
		}
		out = append(out, c)
	}
	return out, total, rows.Err()
}

// RepliesMark versions an entry's statements: it changes whenever one is
// written or hidden, so a cached entry page or answer showing them is
// served again only while they are the same.
func (s *Store) RepliesMark(ctx context.Context, ranking, entry string) (string, error) {
	var seq, n int64
	err := s.db.QueryRowContext(ctx, `SELECT coalesce(max(max(written_seq, hidden_seq)), 0), count(*) FROM replies
		WHERE ranking=? AND entry=?`, ranking, entry).Scan(&seq, &n)
	if err != nil || n == 0 {
		return "", err
	}
	return fmt.Sprintf("replies:%d:%d", seq, n), nil
}
