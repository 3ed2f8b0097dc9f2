package projections

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"
)

// The desk's reads of the editorial workflow: whom to suggest as a
// reviewer, what was asked of a user, the unread count of an inbox and the
// scheduled editions still to come.

// ReviewerLoad is a reviewer and how many votes they cast on the
// proposals of one entry: the desk suggests the least loaded first, so
// that reviews spread.
type ReviewerLoad struct {
	Username    string
	DisplayName string
	Votes       int
}

// ReviewerLoads lists the users holding the reviewer role with the number
// of votes each cast on proposals of the entry, fewest first, then by name.
// Each count reads the entry's proposals first (proposals_entry), then
// the reviewer's votes on each (votes_proposal_voter): read from the votes
// by voter, it walked every vote a reviewer ever cast — 8,000 at 10,000
// entries, over half of a proposal page's CPU.
func (s *Store) ReviewerLoads(ctx context.Context, ranking, entry string) ([]ReviewerLoad, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT u.username, u.display_name,
		(SELECT count(*) FROM proposals p CROSS JOIN votes v ON v.proposal=p.id AND v.voter=u.username
			WHERE p.ranking=? AND p.entry=?) AS n
		FROM users u WHERE EXISTS (SELECT 1 FROM json_each(u.roles) WHERE value='reviewer')
		ORDER BY n, u.username`, ranking, entry)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []ReviewerLoad
	for rows.Next() {
		var r ReviewerLoad
		if err := rows.Scan(&r.Username, &r.DisplayName, &r.Votes); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// RequestedOf returns the ids of the proposals user was asked to review.
func (s *Store) RequestedOf(ctx context.Context, user string) ([]string, error) {
	return s.strings(ctx, `SELECT proposal FROM proposal_reviewers WHERE reviewer=? ORDER BY seq`, user)
}

// InboxUnread returns how many of user's inbox items (InboxItems) hold a
// row past their read mark: an import that cross-validated 10,000 of
// their proposals is one. It reads the unread items alone (migration 028's
// index by user and newest row), not every row of the inbox.
func (s *Store) InboxUnread(ctx context.Context, user string) (int, error) {
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM inbox_items i JOIN users u ON u.username=i.user
		WHERE i.user=? AND i.last_seq>u.inbox_read_upto`, user).Scan(&n)
	return n, err
}

// PendingSchedules lists every ranking's pending scheduled editions,
// soonest first. The moments carry their publishers' offsets, so they are
// ordered as times, not as text.
func (s *Store) PendingSchedules(ctx context.Context) ([]ScheduleRow, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT ranking, id, at, by_user, proposals, preview_hash, snapshot_hash, note,
		state, code, detail, edition, scheduled_at, updated_at FROM schedules WHERE state='pending' ORDER BY seq`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []ScheduleRow
	for rows.Next() {
		var r ScheduleRow
		var picks string
		if err := rows.Scan(&r.Ranking, &r.ID, &r.At, &r.By, &picks, &r.PreviewHash, &r.SnapshotHash, &r.Note,
			&r.State, &r.Code, &r.Detail, &r.Edition, &r.ScheduledAt, &r.UpdatedAt); err != nil {
			return nil, err
		}
		if err := json.Unmarshal([]byte(picks), &r.Proposals); err != nil {
			return nil, fmt.Errorf("schedule %s: proposals: %w", r.ID, err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	slices.SortStableFunc(out, func(a, b ScheduleRow) int { return momentOf(a.At).Compare(momentOf(b.At)) })
	return out, nil
}

// momentOf parses an RFC 3339 moment; a malformed one sorts first.
func momentOf(at string) time.Time {
	t, _ := time.Parse(time.RFC3339, at)
	return t
}
