package projections

import (
	"context"
	"database/sql"

	"github.com/crossrank/crossrank/events"
)

// Report is one reader's report as the desk's triage queue shows it. The
// reporter's contact address is never part of it.
type Report struct {
	ID, Ranking, Entry, Criterion, Evidence, Kind, Text string
	Status, Reason, Proposal, DuplicateOf               string
	Folded                                              int
	OpenedAt, DecidedAt, DecidedBy                      string
	// Edition is the edition that published the accepted report's
	// proposal; 0 until one does.
	Edition int
	// EntryName and ProposalTitle name the entry and the accepted
	// report's proposal for people (empty when the read model holds
	// neither), beside their slug and id.
	EntryName     events.Text
	ProposalTitle string
}

// ReportFilter narrows the triage queue; empty fields match everything.
type ReportFilter struct {
	Ranking string
	Status  string
}

const reportCols = `r.id, r.ranking, r.entry, r.criterion, r.evidence, r.kind, r.text, r.status, r.reason, r.proposal,
	r.duplicate_of, r.folded, r.opened_at, r.decided_at, r.decided_by, coalesce(p.edition, 0),
	coalesce(e.name_zh, ''), coalesce(e.name_en, ''), coalesce(p.title, '')`

const reportFrom = ` FROM reports r LEFT JOIN proposals p ON p.id = r.proposal AND r.proposal <> ''
	LEFT JOIN entries e ON e.ranking = r.ranking AND e.slug = r.entry`

// ReportPage returns the reports f selects, newest first, limit from
// offset, and how many there are in all. Each filter reads an index in
// list order (migration 018).
func (s *Store) ReportPage(ctx context.Context, f ReportFilter, limit, offset int) ([]Report, int, error) {
	where, args := " WHERE 1=1", []any{}
	if f.Ranking != "" {
		where += " AND r.ranking=?"
		args = append(args, f.Ranking)
	}
	if f.Status != "" {
		where += " AND r.status=?"
		args = append(args, f.Status)
	}
	var total int
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM reports r`+where, args...).Scan(&total); err != nil {
		return nil, 0, err
	}
	out, err := s.reports(ctx, `SELECT `+reportCols+reportFrom+where+` ORDER BY r.opened_seq DESC LIMIT ? OFFSET ?`,
		append(args, limit, offset)...)
	return out, total, err
}

// Corrections returns a ranking's decided reports, newest decision first,
// limit from offset, and how many there are in all: the public
// corrections log.
func (s *Store) Corrections(ctx context.Context, ranking string, limit, offset int) ([]Report, int, error) {
	var total int
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM reports WHERE ranking=? AND decided_seq > 0`, ranking).Scan(&total); err != nil {
		return nil, 0, err
	}
	out, err := s.reports(ctx, `SELECT `+reportCols+reportFrom+` WHERE r.ranking=? AND r.decided_seq > 0
		ORDER BY r.decided_seq DESC LIMIT ? OFFSET ?`, ranking, limit, offset)
	return out, total, err
}

// ReportRow returns one report; found is false when there is none.
func (s *Store) ReportRow(ctx context.Context, id string) (Report, bool, error) {
	out, err := s.reports(ctx, `SELECT `+reportCols+reportFrom+` WHERE r.id=?`, id)
	if err != nil || len(out) == 0 {
		return Report{}, false, err
	}
	return out[0], true, nil
}

func (s *Store) reports(ctx context.Context, q string, args ...any) ([]Report, error) {
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Report
	for rows.Next() {
		var r Report
		var ed sql.NullInt64
		if err := rows.Scan(&r.ID, &r.Ranking, &r.Entry, &r.Criterion, &r.Evidence, &r.Kind, &r.Text, &r.Status, &r.Reason,
			&r.Proposal, &r.DuplicateOf, &r.Folded, &r.OpenedAt, &r.DecidedAt, &r.DecidedBy, &ed,
			&r.EntryName.Zh, &r.EntryName.En, &r.ProposalTitle); err != nil {
			return nil, err
		}
		r.Edition = int(ed.Int64)
		out = append(out, r)
	}
	return out, rows.Err()
}
