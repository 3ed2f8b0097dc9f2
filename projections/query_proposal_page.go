package projections

import (
	"context"
	"strings"
)

// Bounds of one page of proposals.
const (
	DefaultProposalLimit = 50
	MaxProposalLimit     = 200
)

// ProposalFilter selects proposals for a list. Every zero field matches
// everything; the rest must all match.
type ProposalFilter struct {
	Ranking string
	Status  string
	Entry   string
	Author  string

	// After continues a list: the proposals that sort after this key.
	After ProposalKey
	Limit int // 0: DefaultProposalLimit; capped at MaxProposalLimit
}

// ProposalKey is a proposal's place in a list: lists sort by the time the
// proposal was opened (as stored, RFC 3339 UTC), then by id, which never
// changes, so a page boundary stays put while proposals are added or
// change status.
type ProposalKey struct {
	Opened string
	ID     string
}

// IsZero reports whether k is the start of the list.
func (k ProposalKey) IsZero() bool { return k == ProposalKey{} }

// ProposalPage is one page of a proposal list.
type ProposalPage struct {
	IDs  []string
	Next ProposalKey // zero on the last page
}

// limit returns the page size f asks for, within bounds.
func (f ProposalFilter) limit() int {
	switch {
	case f.Limit <= 0:
		return DefaultProposalLimit
	case f.Limit > MaxProposalLimit:
		return MaxProposalLimit
	}
	return f.Limit
}

// ProposalIDs returns the ids of one page of the proposals f selects, in
// list order, with the key to continue after it.
func (s *Store) ProposalIDs(ctx context.Context, f ProposalFilter) (ProposalPage, error) {
	var conds []string
	var args []any
	for _, c := range []struct{ col, v string }{
		{"ranking", f.Ranking}, {"status", f.Status}, {"entry", f.Entry}, {"author", f.Author},
	} {
		if c.v != "" {
			conds = append(conds, c.col+"=?")
			args = append(args, c.v)
		}
	}
	if !f.After.IsZero() {
		conds = append(conds, "(opened_at>? OR opened_at=? AND id>?)")
		args = append(args, f.After.Opened, f.After.Opened, f.After.ID)
	}
	where := ""
	if len(conds) > 0 {
		where = "WHERE " + strings.Join(conds, " AND ")
	}
	limit := f.limit()
	// One row more than the page tells whether another page follows.
	rows, err := s.db.QueryContext(ctx, `SELECT id, opened_at FROM proposals `+where+
		` ORDER BY opened_at, id LIMIT ?`, append(args, limit+1)...)
	if err != nil {
		return ProposalPage{}, err
	}
	defer rows.Close()
	var page ProposalPage
	var keys []ProposalKey
	for rows.Next() {
		var k ProposalKey
		if err := rows.Scan(&k.ID, &k.Opened); err != nil {
			return ProposalPage{}, err
		}
		keys = append(keys, k)
	}
	if err := rows.Err(); err != nil {
		return ProposalPage{}, err
	}
	if len(keys) > limit {
		keys = keys[:limit]
		page.Next = keys[limit-1]
	}
	for _, k := range keys {
		page.IDs = append(page.IDs, k.ID)
	}
	return page, nil
}
