package domain

// An approval counts only while its voter holds the reviewer role: a
// reviewer whose role is revoked after approving no longer stands behind
// the proposal. Roles live in the users' aggregates, not the ranking's, so
// the command handler feeds the voters' current roles into the ranking the
// quorum is evaluated on (as declared conflicts reach it through the
// ranking), and every evaluation — the vote's transition, the preview,
// the publish, a scheduled edition, the desk and the API — agrees.

// ReviewerCheck reports whether a user holds the reviewer role now.
type ReviewerCheck func(user string) bool

// WithReviewers returns a copy of r whose quorum evaluation counts only
// the approvals of voters holds accepts. r may be nil.
func (r *Ranking) WithReviewers(holds ReviewerCheck) *Ranking {
	var c Ranking
	if r != nil {
		c = *r
	}
	c.reviewers = holds
	return &c
}

// reviewerRevoked reports whether user's approval no longer counts because
// they no longer hold the reviewer role. Without roles fed in (the pure
// Decide tables, the history generator) every approval counts.
func (r *Ranking) reviewerRevoked(user string) bool {
	return r != nil && r.reviewers != nil && !r.reviewers(user)
}

// JudgeQuorum checks, as a publish is decided, that each chosen
// cross-validated proposal still meets the quorum: approvals of reviewers
// who declared a conflict or lost the reviewer role since do not count,
// nor does a policy below the floor. Preview alone does not judge (the
// desk previews a proposal as if review let it through); the preview the
// publisher is shown, the publish and a scheduled edition do.
func JudgeQuorum(r *Ranking, ed *Edition, chosen []*Proposal) error {
	for _, p := range chosen {
		if q := r.QuorumOf(p, ed); !q.Met {
			return stateErr(ErrNotCrossValidated, "edition.quorum_lost", Args{"proposal": p.ID})
		}
	}
	return nil
}

// StatusShown is the status p shows when its quorum, judged now, is q: a
// cross-validated proposal that no longer meets the quorum (an approver
// lost the reviewer role or declared a conflict since) is in review, as
// the publish would refuse it (JudgeQuorum) and it is not ready to
// publish. No event returns it to review — roles live in the users'
// aggregates, not the proposal's — so every reader judges it the same way
// from the same stream, and the role given back makes it ready again.
func (p *Proposal) StatusShown(q QuorumState) Status {
	if p.Status == StatusCrossValidated && !q.Met {
		return StatusInReview
	}
	return p.Status
}
