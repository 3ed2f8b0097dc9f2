package projections

import (
	"context"
	"database/sql"
	"encoding/json"
	"strings"

	"github.com/crossrank/crossrank/domain"
)

// Bounds of one page of the review queue.
const (
	DefaultReviewPerPage = 50
	MaxReviewPerPage     = 100
)

// Evidence problems the review queue filters by.
const (
	EvidenceStale         = "stale"           // an item of the revision past its validity
	EvidenceQuoteNotFound = "quote_not_found" // an item whose captured source lacks its excerpt
)

// ReviewFilter selects the review queue's proposals; every zero field
// matches everything.
type ReviewFilter struct {
	Ranking  string
	Category string // the entry's category
	Author   string
	Status   string
	// RequestedOf keeps the proposals this reviewer was asked to review.
	RequestedOf string
	// NotApprovedBy keeps the proposals this reviewer has no current
	// approval of, on their current revision: what is left to review.
	NotApprovedBy string
	// Evidence keeps proposals with an evidence problem: EvidenceStale
	// (judged on day Today, YYYY-MM-DD) or EvidenceQuoteNotFound.
	Evidence string
	Today    string

	Page    int // 1-based; 0 is the first
	PerPage int // 0: DefaultReviewPerPage; capped at MaxReviewPerPage
}

// ReviewRow is one proposal of the review queue with what a reviewer
// checks: its changes and its current revision's evidence.
type ReviewRow struct {
	ProposalSummary
	Category string
	Changes  []ChangeView
	Evidence []EvidenceView // the current revision's, in the order added
}

// ReviewPage is one page of the review queue; Total counts every
// proposal the filter selects.
type ReviewPage struct {
	Rows    []ReviewRow
	Total   int
	Page    int
	PerPage int
}

// Pages returns how many pages the filter's proposals fill (at least 1).
func (p ReviewPage) Pages() int { return max(1, (p.Total+p.PerPage-1)/p.PerPage) }

// ReviewQueue returns one page of the proposals f selects, oldest first:
// the order they were opened in, so a page stays put while reviewers work
// through the queue (a proposal voted to cross-validation leaves the
// in-review filter, and the next page moves up; the counts say so).
func (s *Store) ReviewQueue(ctx context.Context, f ReviewFilter) (ReviewPage, error) {
	per := f.PerPage
	switch {
	case per <= 0:
		per = DefaultReviewPerPage
	case per > MaxReviewPerPage:
		per = MaxReviewPerPage
	}
	page := ReviewPage{Page: max(1, f.Page), PerPage: per}
	var conds []string
	var args []any
	for _, c := range []struct{ cond, v string }{
		{"p.ranking=?", f.Ranking}, {"e.category=?", f.Category}, {"p.author=?", f.Author}, {"p.status=?", f.Status},
		{"EXISTS (SELECT 1 FROM proposal_reviewers r WHERE r.proposal=p.id AND r.reviewer=?)", f.RequestedOf},
		{"NOT EXISTS (SELECT 1 FROM votes v WHERE v.proposal=p.id AND v.voter=? AND v.current=1 AND v.revision=p.revision AND v.verdict='approve')", f.NotApprovedBy},
	} {
		if c.v != "" {
			conds = append(conds, c.cond)
			args = append(args, c.v)
		}
	}
	switch f.Evidence {
	case EvidenceStale:
		conds = append(conds, `EXISTS (SELECT 1 FROM evidence x WHERE x.proposal=p.id AND x.removed_revision IS NULL
			AND x.stale_after IS NOT NULL AND x.stale_after < ?)`)
		args = append(args, f.Today)
	case EvidenceQuoteNotFound:
		conds = append(conds, `EXISTS (SELECT 1 FROM evidence x WHERE x.proposal=p.id AND x.removed_revision IS NULL
			AND x.capture_state='captured' AND x.quote_checked=1 AND x.quote_found=0)`)
	}
	where := ""
	if len(conds) > 0 {
		where = " WHERE " + strings.Join(conds, " AND ")
	}
	from := ` FROM proposals p LEFT JOIN entries e ON e.ranking=p.ranking AND e.slug=p.entry`
	counted := from
	if f.Category == "" {
		counted = ` FROM proposals p` // the entry is read for its category alone
	}
	if err := s.db.QueryRowContext(ctx, `SELECT count(*)`+counted+where, args...).Scan(&page.Total); err != nil {
		return page, err
	}
	rows, err := s.db.QueryContext(ctx, `SELECT `+proposalCols+`, coalesce(e.category, '')`+from+where+
		` ORDER BY p.opened_at, p.id LIMIT ? OFFSET ?`, append(args, per, (page.Page-1)*per)...)
	if err != nil {
		return page, err
	}
	byID := map[string]int{}
	for rows.Next() {
		var r ReviewRow
		var revisers, quorum, status string
		if err := rows.Scan(&r.ID, &r.Ranking, &r.Entry, &r.EntryName, &r.NewEntry, &r.Title, &r.Author, &status,
			&r.Revision, &revisers, &r.OpenedAt, &r.UpdatedAt, &r.Edition, &quorum, &r.Kind, &r.NewRanking, &r.Category); err != nil {
			rows.Close()
			return page, err
		}
		r.Status = domain.Status(status)
		if err := json.Unmarshal([]byte(revisers), &r.Revisers); err != nil {
			rows.Close()
			return page, err
		}
		if err := json.Unmarshal([]byte(quorum), &r.Quorum); err != nil {
			rows.Close()
			return page, err
		}
		byID[r.ID] = len(page.Rows)
		page.Rows = append(page.Rows, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil || len(page.Rows) == 0 {
		return page, err
	}
	if err := s.reviewDetails(ctx, &page, byID); err != nil {
		return page, err
	}
	return page, nil
}

// reviewDetails adds each row's changes and current evidence: two queries
// for the page, not two per row.
func (s *Store) reviewDetails(ctx context.Context, page *ReviewPage, byID map[string]int) error {
	ids := make([]any, 0, len(page.Rows))
	for _, r := range page.Rows {
		ids = append(ids, r.ID)
	}
	in := "(" + strings.TrimSuffix(strings.Repeat("?,", len(ids)), ",") + ")"
	cq, err := s.db.QueryContext(ctx, `SELECT proposal, target, revision, from_score, to_score, from_tags, to_tags, rationale_zh, rationale_en, evidence
		FROM changes WHERE proposal IN `+in+` ORDER BY proposal, target`, ids...)
	if err != nil {
		return err
	}
	for cq.Next() {
		var id string
		var c ChangeView
		var fs, ts sql.NullInt64
		var ft, tt sql.NullString
		var ev string
		if err := cq.Scan(&id, &c.Target, &c.Revision, &fs, &ts, &ft, &tt, &c.Rationale.Zh, &c.Rationale.En, &ev); err != nil {
			cq.Close()
			return err
		}
		c.FromScore, c.ToScore = intPtr(fs), intPtr(ts)
		for _, j := range []struct {
			s   sql.NullString
			dst *[]string
		}{{ft, &c.FromTags}, {tt, &c.ToTags}, {sql.NullString{String: ev, Valid: true}, &c.Evidence}} {
			if j.s.Valid {
				if err := json.Unmarshal([]byte(j.s.String), j.dst); err != nil {
					cq.Close()
					return err
				}
			}
		}
		r := &page.Rows[byID[id]]
		r.Changes = append(r.Changes, c)
	}
	cq.Close()
	if err := cq.Err(); err != nil {
		return err
	}
	eq, err := s.db.QueryContext(ctx, `SELECT `+evidenceCols+` FROM evidence e WHERE e.proposal IN `+in+`
		AND e.removed_revision IS NULL ORDER BY e.proposal, length(e.evidence_id), e.evidence_id`, ids...)
	if err != nil {
		return err
	}
	defer eq.Close()
	for eq.Next() {
		var e EvidenceView
		if err := eq.Scan(e.dest()...); err != nil {
			return err
		}
		r := &page.Rows[byID[e.Proposal]]
		r.Evidence = append(r.Evidence, e)
	}
	return eq.Err()
}
