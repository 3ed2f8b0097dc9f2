package domain_test

import (
	"testing"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// TestMethodologyNeedsTwoReviewers: whatever the ranking's quorum policy,
// a methodology proposal needs two approvals.
func TestMethodologyNeedsTwoReviewers(t *testing.T) {
	p := &domain.Proposal{ID: "m1", Kind: domain.KindMethodology, Author: "alice", Revision: 1, Status: domain.StatusInReview,
		Votes: map[string]*domain.Vote{"rita": {VoteCast: events.VoteCast{Revision: 1, Verdict: approve}, Voter: "rita"}}}
	q := domain.Quorum(p, events.QuorumPolicy{MinApprovals: 1}, &domain.Edition{})
	if q.Met || q.Needed != 1 {
		t.Errorf("methodology quorum with one approval under a one-approval policy = %+v, want one more needed", q)
	}
}
