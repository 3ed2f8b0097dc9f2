package projections

import (
	"context"
	"strings"
)

// OverdueReview is a requested reviewer who was nudged at their due date
// and has not answered since.
type OverdueReview struct {
	Proposal string
	Reviewer string
	Due      string // RFC 3339, UTC
}

// OverdueReviews returns the overdue reviews of the proposals named, by
// proposal, each proposal's reviewers in the order asked.
func (s *Store) OverdueReviews(ctx context.Context, proposals []string) (map[string][]OverdueReview, error) {
	out := map[string][]OverdueReview{}
	if len(proposals) == 0 {
		return out, nil
	}
	args := make([]any, len(proposals))
	for i, p := range proposals {
		args[i] = p
	}
	rows, err := s.db.QueryContext(ctx, `SELECT d.proposal, d.reviewer, d.due FROM review_due d
		JOIN proposal_reviewers r ON r.proposal=d.proposal AND r.reviewer=d.reviewer
		WHERE d.overdue=1 AND d.proposal IN (?`+strings.Repeat(",?", len(proposals)-1)+`) ORDER BY d.proposal, r.seq, d.reviewer`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var o OverdueReview
		if err := rows.Scan(&o.Proposal, &o.Reviewer, &o.Due); err != nil {
			return nil, err
		}
		out[o.Proposal] = append(out[o.Proposal], o)
	}
	return out, rows.Err()
}
