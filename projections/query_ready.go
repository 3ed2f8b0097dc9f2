package projections

import (
	"context"
	"slices"
	"strings"

	"github.com/crossrank/crossrank/domain"
)

// ProposalRef is a proposal as a choice among many needs it: its id, and
// whether a given user authored or revised it.
type ProposalRef struct {
	ID  string
	Own bool
}

// ProposalRefs lists a ranking's proposals in one status, oldest change
// first (the order of ProposalsWithStatus), with whether user authored or
// revised each. It reads no quorum and joins no entry: the publish page
// asks it for every cross-validated proposal of a ranking on each view, and
// reads the rows it shows with ProposalsByID. revisers is a JSON array of
// names: a name quoted as JSON is in it exactly when it is one of them
// (json_each on every row cost more than the rest of the query).
//
// The list is kept while the read models stay at one position (a covering
// walk of migration 028's index still reads a row per proposal: 10 ms at
// 8,000), and shared: callers must not change it.
func (s *Store) ProposalRefs(ctx context.Context, ranking string, status domain.Status, user string) ([]ProposalRef, error) {
	key := "refs\x00" + ranking + "\x00" + string(status) + "\x00" + user
	return atPosition(s, key, func() ([]ProposalRef, error) { return s.proposalRefs(ctx, ranking, status, user) })
}

func (s *Store) proposalRefs(ctx context.Context, ranking string, status domain.Status, user string) ([]ProposalRef, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, author = ?1 OR instr(revisers, json_quote(?1)) > 0
		FROM proposals WHERE ranking = ?2 AND status = ?3 ORDER BY updated_at, id`, user, ranking, string(status))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []ProposalRef
	for rows.Next() {
		var r ProposalRef
		if err := rows.Scan(&r.ID, &r.Own); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// ProposalsByID returns the summaries of the proposals ids names, in that
// order; an id that names no proposal is left out.
func (s *Store) ProposalsByID(ctx context.Context, ids []string) ([]ProposalSummary, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	list, err := s.proposalList(ctx, `WHERE id IN (?`+strings.Repeat(",?", len(ids)-1)+`)`, args...)
	if err != nil {
		return nil, err
	}
	at := make(map[string]int, len(ids))
	for i, id := range ids {
		at[id] = i
	}
	slices.SortFunc(list, func(a, b ProposalSummary) int { return at[a.ID] - at[b.ID] })
	return list, nil
}
