package projections

import (
	"context"
	"encoding/json"
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
