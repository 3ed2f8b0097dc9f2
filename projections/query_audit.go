package projections

import (
	"context"
	"database/sql"
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// Bounds of one page of the audit trail.
const (
	DefaultAuditLimit = 50
	MaxAuditLimit     = 500
)

// AuditFilter selects rows of the audit trail. Every zero field matches
// everything; the rest must all match.
type AuditFilter struct {
	Ranking  string // the ranking the event concerns
	Entry    string // an entry slug (of Ranking, or of any ranking)
	Proposal string // a proposal id
	Actor    string // who caused the event
	Type     string // the full event type, crossrank.<aggregate>.<event>.v<N>; matches every version of the event
	From     string // first day, YYYY-MM-DD (UTC), inclusive
	To       string // last day, YYYY-MM-DD (UTC), inclusive

	// Keyset pagination by sequence: Before returns the rows older than a
	// sequence, After those newer (both still newest first). Before wins
	// when both are set.
	Before uint64
	After  uint64
	Limit  int // 0: DefaultAuditLimit; capped at MaxAuditLimit

	// Numbered pages, newest first, counted from UpTo (0: the newest row
	// now), which the cursors then ignore. The trail only grows at its
	// newest end, so a page's address (?page=N&upto=S) shows the same rows
	// however many events arrive later.
	Page int // 1-based; 0: the cursors choose the page
	UpTo uint64
}

// AuditRow is one event of the audit trail, flattened, with the link of the
// hash chain after it.
type AuditRow struct {
	Seq       uint64    `json:"seq"`
	At        time.Time `json:"at"`
	Actor     string    `json:"actor"`
	Kind      string    `json:"kind"`
	Aggregate string    `json:"aggregate"`
	Type      string    `json:"type"` // as stored (the type its hash covers): v1 and v2 of an event both appear
	EventID   string    `json:"event_id"`
	// Msg and Args say what the event did: a message id (AuditMessages
	// lists them) and its named arguments, a JSON object; web/i18n words
	// them (i18n.AuditLine).
	Msg      string          `json:"msg"`
	Args     json.RawMessage `json:"args"`
	Before   string          `json:"before"`
	After    string          `json:"after"`
	Ranking  string          `json:"ranking"`
	Entry    string          `json:"entry"`
	Proposal string          `json:"proposal"`
	Hash     string          `json:"hash"`
	// AuthVia is how the actor signed in, the event's ce-authvia attribute
	// as stored (events.ParseVia reads it); "" for older events.
	AuthVia string `json:"authvia"`
}

// AuditPage is one page of the trail, newest first, with the cursors of
// the neighbouring pages (0 when there is none). A numbered page (Page set
// in the filter) has no cursors but counts: Total rows match the filter
// up to UpTo, the newest sequence its pages count from (0 when none
// match), and Since those after it (when the filter named UpTo).
type AuditPage struct {
	Rows  []AuditRow
	Older uint64 // pass as Before for the next older page
	Newer uint64 // pass as After for the next newer page
	Total int
	UpTo  uint64
	Since int
}

// where returns the filter's conditions (without the keyset) and their
// arguments. Invalid days are a field error (422).
func (f AuditFilter) where() (string, []any, error) {
	var conds []string
	var args []any
	add := func(cond string, arg any) {
		conds = append(conds, cond)
		args = append(args, arg)
	}
	if f.Ranking != "" {
		add("ranking=?", f.Ranking)
	}
	if f.Entry != "" {
		add("entry=?", f.Entry)
	}
	if f.Proposal != "" {
		add("proposal=?", f.Proposal)
	}
	if f.Actor != "" {
		add("actor=?", f.Actor)
	}
	if vs := events.Versions(f.Type); len(vs) > 0 {
		// Every version of the event: a vote stored as vote_cast.v1 is
		// the same event as a vote_cast.v2 for whoever filters. Several
		// versions are several ranges of the type index, which would have
		// to be sorted together: "+type" reads the trail in sequence
		// order instead, stopping at the page.
		ph := strings.Repeat(",?", len(vs))[1:]
		conds = append(conds, "+type IN ("+ph+")")
		for _, v := range vs {
			args = append(args, v)
		}
	} else if f.Type != "" {
		add("type=?", f.Type)
	}
	// at holds RFC 3339 UTC times, so a day compares as a string prefix:
	// every time of day D sorts at or after "D" and before "D+1".
	if f.From != "" {
		d, err := parseDay("from_date", f.From)
		if err != nil {
			return "", nil, err
		}
		add("at>=?", d.Format(time.DateOnly))
	}
	if f.To != "" {
		d, err := parseDay("to_date", f.To)
		if err != nil {
			return "", nil, err
		}
		add("at<?", d.AddDate(0, 0, 1).Format(time.DateOnly))
	}
	if len(conds) == 0 {
		return "1=1", nil, nil
	}
	return strings.Join(conds, " AND "), args, nil
}

// Check reports a filter that cannot be applied (a malformed day) as a
// field error, before anything is read.
func (f AuditFilter) Check() error {
	_, _, err := f.where()
	return err
}

func parseDay(field, s string) (time.Time, error) {
	d, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return d, domain.Invalid(field, "field.date", nil)
	}
	return d, nil
}

func (f AuditFilter) limit() int {
	switch {
	case f.Limit <= 0:
		return DefaultAuditLimit
	case f.Limit > MaxAuditLimit:
		return MaxAuditLimit
	}
	return f.Limit
}

const auditCols = `seq, at, actor, kind, aggregate, type, event_id, msg, args,
	before, after, ranking, entry, proposal, hash, authvia`

// Audit returns one page of the rows matching f, newest first.
func (s *Store) Audit(ctx context.Context, f AuditFilter) (AuditPage, error) {
	where, args, err := f.where()
	if err != nil {
		return AuditPage{}, err
	}
	n := f.limit()
	if f.Page > 0 {
		return s.auditNumbered(ctx, f, where, args, n)
	}
	var page AuditPage
	switch {
	case f.Before > 0:
		page.Rows, err = s.auditRows(ctx, where+" AND seq<? ORDER BY seq DESC LIMIT ?", append(args, f.Before, n)...)
	case f.After > 0:
		page.Rows, err = s.auditRows(ctx, where+" AND seq>? ORDER BY seq ASC LIMIT ?", append(args, f.After, n)...)
		slices.Reverse(page.Rows)
	default:
		page.Rows, err = s.auditRows(ctx, where+" ORDER BY seq DESC LIMIT ?", append(args, n)...)
	}
	if err != nil || len(page.Rows) == 0 {
		return page, err
	}
	newest, oldest := page.Rows[0].Seq, page.Rows[len(page.Rows)-1].Seq
	if ok, err := s.auditExists(ctx, where+" AND seq<?", append(args, oldest)...); err != nil {
		return page, err
	} else if ok {
		page.Older = oldest
	}
	if ok, err := s.auditExists(ctx, where+" AND seq>?", append(args, newest)...); err != nil {
		return page, err
	} else if ok {
		page.Newer = newest
	}
	return page, nil
}

// auditNumbered returns page f.Page of the rows matching where, n a page,
// counted from f.UpTo.
func (s *Store) auditNumbered(ctx context.Context, f AuditFilter, where string, args []any, n int) (AuditPage, error) {
	page := AuditPage{UpTo: f.UpTo}
	if page.UpTo == 0 {
		if err := s.db.QueryRowContext(ctx, `SELECT coalesce(max(seq), 0) FROM audit WHERE `+where, args...).Scan(&page.UpTo); err != nil {
			return page, err
		}
	} else if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM audit WHERE `+where+` AND seq>?`,
		append(slices.Clone(args), page.UpTo)...).Scan(&page.Since); err != nil {
		return page, err
	}
	args = append(slices.Clone(args), page.UpTo)
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM audit WHERE `+where+` AND seq<=?`, args...).Scan(&page.Total); err != nil {
		return page, err
	}
	var err error
	page.Rows, err = s.auditRows(ctx, auditNumberedPage(where), append(args, n, (f.Page-1)*n)...)
	return page, err
}

// auditNumberedPage is the condition and order of a numbered page: the
// rows up to a sequence, newest first, from the key or an index on
// (column, seq).
func auditNumberedPage(where string) string {
	return where + ` AND seq<=? ORDER BY seq DESC LIMIT ? OFFSET ?`
}

// AuditEach calls fn for every row matching f, newest first, ignoring the
// filter's cursors and limit: the exports stream the whole selection in
// chunks rather than holding it in memory.
func (s *Store) AuditEach(ctx context.Context, f AuditFilter, fn func(AuditRow) error) error {
	where, args, err := f.where()
	if err != nil {
		return err
	}
	const chunk = 1000
	var before uint64
	for {
		q, a := where+" ORDER BY seq DESC LIMIT ?", append(slices.Clone(args), chunk)
		if before > 0 {
			q, a = where+" AND seq<? ORDER BY seq DESC LIMIT ?", append(slices.Clone(args), before, chunk)
		}
		rows, err := s.auditRows(ctx, q, a...)
		if err != nil {
			return err
		}
		for _, r := range rows {
			if err := fn(r); err != nil {
				return err
			}
		}
		if len(rows) < chunk {
			return nil
		}
		before = rows[len(rows)-1].Seq
	}
}

func (s *Store) auditRows(ctx context.Context, where string, args ...any) ([]AuditRow, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+auditCols+` FROM audit WHERE `+where, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []AuditRow
	for rows.Next() {
		var r AuditRow
		var at, args string
		if err := rows.Scan(&r.Seq, &at, &r.Actor, &r.Kind, &r.Aggregate, &r.Type, &r.EventID, &r.Msg,
			&args, &r.Before, &r.After, &r.Ranking, &r.Entry, &r.Proposal, &r.Hash, &r.AuthVia); err != nil {
			return nil, err
		}
		r.At, _ = time.Parse(time.RFC3339Nano, at)
		r.Args = json.RawMessage(args)
		out = append(out, r)
	}
	return out, rows.Err()
}

func (s *Store) auditExists(ctx context.Context, where string, args ...any) (bool, error) {
	var one int
	err := s.db.QueryRowContext(ctx, `SELECT 1 FROM audit WHERE `+where+` LIMIT 1`, args...).Scan(&one)
	if err == sql.ErrNoRows {
		return false, nil
	}
	return err == nil, err
}

// AuditTypes lists the event types present in the trail, sorted, each at
// its current version: older versions of an event (vote_cast.v1) are
// listed once, as the current one (vote_cast.v2), which filters both.
// A type the catalog does not know keeps its name.
func (s *Store) AuditTypes(ctx context.Context) ([]string, error) {
	stored, err := s.strings(ctx, `SELECT DISTINCT type FROM audit ORDER BY type`)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(stored))
	for _, t := range stored {
		if cur, ok := events.Current(t); ok {
			t = cur
		}
		out = append(out, t)
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// AuditActors lists everyone who caused an event, sorted.
func (s *Store) AuditActors(ctx context.Context) ([]string, error) {
	return s.strings(ctx, `SELECT DISTINCT actor FROM audit ORDER BY actor`)
}
