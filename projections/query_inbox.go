package projections

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/crossrank/crossrank/domain"
)

// InboxRow is one thing that concerned a user: Seq is the stream sequence
// of the event, Kind what happened (review_requested, veto, comment,
// cross_validated, published, returned, schedule_failed, source_changed,
// source_dead), Proposal the proposal (for schedule_failed, the schedule).
//
// An inbox item (InboxItems) is a row standing for the rows of one burst
// of an actor's work (migration 028): Seq, Ranking, Proposal, At and
// Detail are its first row's, LastSeq its newest's, Count how many it
// stands for. A row of Inbox is an item of one: LastSeq is Seq, Count 1.
type InboxRow struct {
	Seq      uint64
	Kind     string
	Ranking  string
	Proposal string
	Actor    string
	At       string
	Detail   string
	LastSeq  uint64
	Count    int
	Title    string // the proposal's title; "" when the row names no proposal
}

// InboxKinds are the kinds of inbox rows, in the order a filter lists them.
var InboxKinds = []string{"review_requested", "comment", "veto", "returned", "cross_validated", "published",
	"schedule_failed", "source_changed", "source_dead", "review_overdue", "vendor_edition", "vendor_report", "vendor_preview"}

// Bounds of one page of an inbox.
const (
	DefaultInboxLimit = 50
	MaxInboxLimit     = 200
)

// InboxFilter selects a page of a user's inbox, newest first.
//
// A page is chosen by number (Page) or by cursor (Before). Numbered pages
// count from the newest row of UpTo: the inbox only grows at its newest
// end, so the list as it stood at a sequence never changes, and a page's
// address (?page=N&upto=S) shows the same rows however many arrive later.
type InboxFilter struct {
	User   string
	Kind   string // only rows of this kind; "" for every kind
	Before uint64 // only rows of events before this sequence; 0: from the newest
	Page   int    // 1-based page number; 0: the page Before starts
	UpTo   uint64 // with Page: the newest sequence counted; 0: the newest row now
	Limit  int    // 0: DefaultInboxLimit; capped at MaxInboxLimit
}

func (f InboxFilter) limit() int {
	switch {
	case f.Limit <= 0:
		return DefaultInboxLimit
	case f.Limit > MaxInboxLimit:
		return MaxInboxLimit
	}
	return f.Limit
}

// InboxPage is one page of an inbox. Next is the Before of the following
// page, 0 on the last; Unread counts the rows after the user's read mark,
// ReadUpTo; Newest is the newest sequence of any row, which "mark all
// read" reads up to. Total counts the rows the filter selects up to UpTo, the
// newest sequence the numbered pages count from (0 for an empty inbox),
// and Since those after it (when the filter named UpTo).
type InboxPage struct {
	Rows     []InboxRow
	Next     uint64
	Unread   int
	ReadUpTo uint64
	Total    int
	UpTo     uint64
	Since    int
	Newest   uint64
}

// inboxSource is what a page of an inbox reads: its rows, or its items.
type inboxSource struct {
	table string // keyed by (user, seq, kind)
	last  string // the newest sequence a row stands for
	count string // how many rows it stands for
}

var (
	inboxRowSource  = inboxSource{table: "inbox", last: "seq", count: "1"}
	inboxItemSource = inboxSource{table: "inbox_items", last: "last_seq", count: "count"}
)

// InboxItems returns a page of a user's inbox items, newest first: one an
// action (an import's proposals cross-validated, a batch of votes, an
// edition), however many rows it made. Unread counts items with a row
// after the read mark; the pages are those of Inbox, over items.
func (s *Store) InboxItems(ctx context.Context, f InboxFilter) (InboxPage, error) {
	return s.inboxPage(ctx, f, inboxItemSource)
}

// Inbox returns a page of a user's inbox rows, newest first.
func (s *Store) Inbox(ctx context.Context, f InboxFilter) (InboxPage, error) {
	return s.inboxPage(ctx, f, inboxRowSource)
}

func (s *Store) inboxPage(ctx context.Context, f InboxFilter, src inboxSource) (InboxPage, error) {
	limit := f.limit()
	var page InboxPage
	err := s.db.QueryRowContext(ctx, `SELECT inbox_read_upto FROM users WHERE username=?`, f.User).Scan(&page.ReadUpTo)
	if errors.Is(err, sql.ErrNoRows) {
		return page, fmt.Errorf("user %s: %w", f.User, domain.ErrUserMissing)
	}
	if err != nil {
		return page, err
	}
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM `+src.table+` WHERE user=? AND `+src.last+`>?`, f.User, page.ReadUpTo).
		Scan(&page.Unread); err != nil {
		return page, err
	}
	if err := s.db.QueryRowContext(ctx, `SELECT coalesce(max(`+src.last+`), 0) FROM `+src.table+` WHERE user=?`, f.User).
		Scan(&page.Newest); err != nil {
		return page, err
	}
	where, args := `user=?`, []any{f.User}
	if f.Kind != "" {
		where, args = where+` AND kind=?`, append(args, f.Kind)
	}
	page.UpTo = f.UpTo
	if page.UpTo == 0 {
		if err := s.db.QueryRowContext(ctx, `SELECT coalesce(max(seq), 0) FROM `+src.table+` WHERE `+where, args...).Scan(&page.UpTo); err != nil {
			return page, err
		}
	} else if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM `+src.table+` WHERE `+where+` AND seq>?`, append(args, page.UpTo)...).
		Scan(&page.Since); err != nil {
		return page, err
	}
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM `+src.table+` WHERE `+where+` AND seq<=?`, append(args, page.UpTo)...).
		Scan(&page.Total); err != nil {
		return page, err
	}
	if f.Page > 0 {
		// The key's order (user, seq, kind) read backwards: no sort.
		page.Rows, err = s.inboxRows(ctx, src, where+inboxNumberedPage, append(args, page.UpTo, limit, (f.Page-1)*limit)...)
		return page, err
	}
	before := f.Before
	if before == 0 {
		before = 1<<63 - 1
	}
	// One row more than the page tells whether another page follows.
	page.Rows, err = s.inboxRows(ctx, src, where+` AND seq<? ORDER BY seq DESC, kind DESC LIMIT ?`, append(args, before, limit+1)...)
	if err != nil {
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

// inboxNumberedPage ends the condition of a numbered page.
const inboxNumberedPage = ` AND seq<=? ORDER BY seq DESC, kind DESC LIMIT ? OFFSET ?`

func (s *Store) inboxRows(ctx context.Context, src inboxSource, where string, args ...any) ([]InboxRow, error) {
	// The proposal's title too, so that the desk names it rather than its
	// id: a primary-key lookup a row, on one page of rows.
	rows, err := s.db.QueryContext(ctx, `SELECT seq, kind, ranking, proposal, actor, at, detail, `+src.last+`, `+src.count+`,
		coalesce((SELECT p.title FROM proposals p WHERE p.id = `+src.table+`.proposal), '')
		FROM `+src.table+` WHERE `+where, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []InboxRow
	for rows.Next() {
		var r InboxRow
		if err := rows.Scan(&r.Seq, &r.Kind, &r.Ranking, &r.Proposal, &r.Actor, &r.At, &r.Detail, &r.LastSeq, &r.Count, &r.Title); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}
