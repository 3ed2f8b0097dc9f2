package projections

import (
	"database/sql/driver"
	"slices"

	"github.com/crossrank/crossrank/domain"
)

// An approval counts only while its voter holds the reviewer role and has
// declared no conflict (domain/quorum_roles.go). A proposal's row holds its
// quorum judged with its voters' roles as the stream stood when the row was
// written, so a role revoked or given back judges again every open proposal
// its user approves: a cross-validated one whose quorum no longer holds
// shows in review, out of the ready-to-publish lists, with the lost
// approval left out of its approvers, as a publish would judge it; the
// role given back restores it. Everything is read from the stream, so a
// rebuild writes the same rows.

// reviewers reports which of pr's voters hold the reviewer role at the
// projection's position. A voter without an account (a tool's actor) is
// not judged, as in the command handler: nobody took a role from them.
func (p *projector) reviewers(pr *domain.Proposal) (domain.ReviewerCheck, error) {
	holds := make(map[string]bool, len(pr.Votes))
	for name := range pr.Votes {
		s, err := p.state(domain.UserID(name))
		if err != nil {
			return nil, err
		}
		u, _ := s.(*domain.User)
		holds[name] = !u.Exists() || slices.Contains(u.Roles, domain.RoleReviewer)
	}
	return func(user string) bool { h, ok := holds[user]; return !ok || h }, nil
}

// requorumApprovals refreshes the summary row of every open proposal user
// currently approves, the rows recorded since the last write taking
// precedence over the table's (as in requorum).
func (p *projector) requorumApprovals(user string) error {
	var open [][2]string // id, updated_at
	err := p.w.query(`SELECT v.proposal, pr.updated_at FROM votes v JOIN proposals pr ON pr.id = v.proposal
		WHERE v.voter=? AND v.current=1 AND v.verdict='approve' AND pr.status IN ('in_review','cross_validated')
		ORDER BY v.proposal`, []any{user},
		func(row []driver.Value) error {
			if id := colText(row[0]); p.proposals[id].pr == nil {
				open = append(open, [2]string{id, colText(row[1])})
			}
			return nil
		})
	if err != nil {
		return err
	}
	for id, row := range p.proposals {
		if row.pr.Status.Open() && row.pr.Votes[user] != nil {
			open = append(open, [2]string{id, row.at})
		}
	}
	for _, o := range open {
		pr, err := p.proposal(o[0])
		if err != nil {
			return err
		}
		if err := p.saveProposalAt(pr, o[1]); err != nil {
			return err
		}
	}
	return nil
}
