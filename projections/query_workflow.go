package projections

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// ScheduleRow is a scheduled edition as the read models hold it.
type ScheduleRow struct {
	Ranking      string
	ID           string
	At           string // RFC 3339, with the publisher's offset
	By           string
	Proposals    []events.ScheduledPick
	PreviewHash  string
	SnapshotHash string
	Note         string
	State        string // domain.SchedulePending, …
	Code         string // why it failed
	Detail       string
	Edition      int // the edition it published
	ScheduledAt  string
	UpdatedAt    string
}

// Schedules lists a ranking's scheduled editions: the pending ones soonest
// first, then the others, most recently settled first.
func (s *Store) Schedules(ctx context.Context, ranking string) ([]ScheduleRow, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT ranking, id, at, by_user, proposals, preview_hash, snapshot_hash, note,
		state, code, detail, edition, scheduled_at, updated_at FROM schedules WHERE ranking=?
		ORDER BY state<>'pending', CASE WHEN state='pending' THEN seq ELSE -seq END`, ranking)
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
	// The moments keep their publishers' offsets, so they sort as times,
	// not as text.
	pending := 0
	for pending < len(out) && out[pending].State == domain.SchedulePending {
		pending++
	}
	slices.SortStableFunc(out[:pending], func(a, b ScheduleRow) int { return parseAt(a.At).Compare(parseAt(b.At)) })
	return out, rows.Err()
}

func parseAt(s string) time.Time {
	t, _ := time.Parse(time.RFC3339, s)
	return t
}

// ConflictRow is a reviewer's declared conflict of interest.
type ConflictRow struct {
	User   string
	Entry  string // "": the whole ranking
	Reason string
	At     string
}

// Conflicts lists a ranking's declared conflicts of interest, in the order
// they were declared.
func (s *Store) Conflicts(ctx context.Context, ranking string) ([]ConflictRow, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT user, entry, reason, at FROM conflicts WHERE ranking=? ORDER BY seq, user, entry`, ranking)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []ConflictRow
	for rows.Next() {
		var r ConflictRow
		if err := rows.Scan(&r.User, &r.Entry, &r.Reason, &r.At); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// InboxRow is one thing that concerned a user: Seq is the stream sequence
// of the event, Kind what happened (review_requested, veto, comment,
// cross_validated, published, returned, schedule_failed, source_changed,
// source_dead), Proposal the proposal (for schedule_failed, the schedule).
type InboxRow struct {
	Seq      uint64
	Kind     string
	Ranking  string
	Proposal string
	Actor    string
	At       string
	Detail   string
}

// InboxFilter selects a page of a user's inbox, newest first.
type InboxFilter struct {
	User   string
	Before uint64 // only rows of events before this sequence; 0: from the newest
	Limit  int    // default 50, at most 200
}

// InboxPage is one page of an inbox. Next is the Before of the following
// page, 0 on the last; Unread counts the rows after the user's read mark,
// ReadUpTo.
type InboxPage struct {
	Rows     []InboxRow
	Next     uint64
	Unread   int
	ReadUpTo uint64
}

// Inbox returns a page of a user's inbox, newest first.
func (s *Store) Inbox(ctx context.Context, f InboxFilter) (InboxPage, error) {
	limit := f.Limit
	if limit <= 0 {
		limit = 50
	}
	limit = min(limit, 200)
	var page InboxPage
	err := s.db.QueryRowContext(ctx, `SELECT inbox_read_upto FROM users WHERE username=?`, f.User).Scan(&page.ReadUpTo)
	if errors.Is(err, sql.ErrNoRows) {
		return page, fmt.Errorf("user %s: %w", f.User, domain.ErrUserMissing)
	}
	if err != nil {
		return page, err
	}
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM inbox WHERE user=? AND seq>?`, f.User, page.ReadUpTo).
		Scan(&page.Unread); err != nil {
		return page, err
	}
	before := f.Before
	if before == 0 {
		before = 1<<63 - 1
	}
	// One row more than the page tells whether another page follows.
	rows, err := s.db.QueryContext(ctx, `SELECT seq, kind, ranking, proposal, actor, at, detail FROM inbox
		WHERE user=? AND seq<? ORDER BY seq DESC, kind LIMIT ?`, f.User, before, limit+1)
	if err != nil {
		return page, err
	}
	defer rows.Close()
	for rows.Next() {
		var r InboxRow
		if err := rows.Scan(&r.Seq, &r.Kind, &r.Ranking, &r.Proposal, &r.Actor, &r.At, &r.Detail); err != nil {
			return page, err
		}
		page.Rows = append(page.Rows, r)
	}
	if err := rows.Err(); err != nil {
		return page, err
	}
	// A page never splits one event's rows: they share a sequence.
	if len(page.Rows) > limit {
		last := page.Rows[limit].Seq
		cut := limit
		for cut > 0 && page.Rows[cut-1].Seq == last {
			cut--
		}
		if cut == 0 { // one event fills the page: keep it whole
			for cut = limit; cut < len(page.Rows) && page.Rows[cut].Seq == last; cut++ {
			}
		}
		page.Rows = page.Rows[:cut]
		page.Next = page.Rows[cut-1].Seq
	}
	return page, nil
}
