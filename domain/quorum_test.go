package domain_test

import (
	"reflect"
	"testing"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

const (
	approve = events.Approve
	reject  = events.Reject
)

func returnedForVeto() events.Transition {
	return events.Transition{ReturnedToReview: &events.ProposalReturnedToReview{Reason: "veto"}}
}

func TestDecideCastVote(t *testing.T) {
	runDecide(t, []decideTest{
		// --- at least two approvals from distinct reviewers ---
		{name: "first approval is only a vote",
			given: p1InReview(), when: castVote("rita", "p1", 1, approve, "e1", "e2"),
			want: changes(vote("p1", 1, approve, "e1", "e2"))},
		{name: "second distinct approval completes the quorum",
			given: cat(p1InReview(), []given{voted("p1", "rita", 1, approve, "e1", "e2")}),
			when:  castVote("ravi", "p1", 1, approve, "e1", "e2"),
			want:  changes(carrying(vote("p1", 1, approve, "e1", "e2"), crossValidated(1, "ravi", "rita")))},
		{name: "two approvers may split the evidence between them",
			given: cat(p1InReview(), []given{voted("p1", "rita", 1, approve, "e1")}),
			when:  castVote("ravi", "p1", 1, approve, "e2"),
			want:  changes(carrying(vote("p1", 1, approve, "e2"), crossValidated(1, "ravi", "rita")))},
		{name: "one reviewer approving twice is one approval",
			given: cat(p1InReview(), []given{voted("p1", "rita", 1, approve, "e1", "e2")}),
			when:  castVote("rita", "p1", 1, approve, "e1", "e2"),
			want:  changes(vote("p1", 1, approve, "e1", "e2"))},

		// --- the author and revisers never count ---
		{name: "author holding the reviewer role cannot vote",
			given: cat(defined(), []given{opened("p1", "eve", "acme"), evidence("p1", "eve", "e1", 1),
				score("p1", "eve", 1, "price", ptr(5), 7, "e1"), submitted("p1", "eve", 1)}),
			when: castVote("eve", "p1", 1, approve, "e1"), err: domain.ErrSelfApproval},
		{name: "author cannot veto their own proposal either",
			given: cat(defined(), []given{opened("p1", "eve", "acme"), evidence("p1", "eve", "e1", 1),
				score("p1", "eve", 1, "price", ptr(5), 7, "e1"), submitted("p1", "eve", 1)}),
			when: castVote("eve", "p1", 1, reject), err: domain.ErrSelfApproval},
		{name: "reviser holding the reviewer role cannot vote",
			given: cat(p1InReview(), []given{revised("p1", "rex", 2), submitted("p1", "rex", 2)}),
			when:  castVote("rex", "p1", 2, approve, "e1", "e2"), err: domain.ErrSelfApproval},
		{name: "a reviewer's approval stops counting once they revise",
			given: cat(p1InReview(), []given{
				voted("p1", "rex", 1, approve, "e1", "e2"),
				revised("p1", "rex", 2), submitted("p1", "alice", 2),
				voted("p1", "rita", 2, approve, "e1", "e2")}),
			when: castVote("ravi", "p1", 2, approve, "e1", "e2"),
			want: changes(carrying(vote("p1", 2, approve, "e1", "e2"), crossValidated(2, "ravi", "rita")))},

		// --- every evidence item verified by an approver ---
		{name: "an evidence item no approver verified blocks",
			given: cat(p1InReview(), []given{voted("p1", "rita", 1, approve, "e1")}),
			when:  castVote("ravi", "p1", 1, approve, "e1"),
			want:  changes(vote("p1", 1, approve, "e1"))},
		{name: "approvals verifying nothing do not validate",
			given: cat(p1InReview(), []given{voted("p1", "rita", 1, approve)}),
			when:  castVote("ravi", "p1", 1, approve),
			want:  changes(vote("p1", 1, approve))},
		{name: "a rejecter's checked evidence does not count as verified",
			given: cat(p1InReview(), []given{voted("p1", "rosa", 1, reject), voted("p1", "rita", 1, approve, "e1")}),
			when:  castVote("ravi", "p1", 1, approve, "e1"),
			want:  changes(vote("p1", 1, approve, "e1"))},

		// --- a reject is a veto ---
		{name: "a reject blocks two approvals",
			given: cat(p1InReview(), []given{voted("p1", "rosa", 1, reject), voted("p1", "rita", 1, approve, "e1", "e2")}),
			when:  castVote("ravi", "p1", 1, approve, "e1", "e2"),
			want:  changes(vote("p1", 1, approve, "e1", "e2"))},
		{name: "the veto carries over to a new revision",
			given: cat(p1InReview(), []given{voted("p1", "rosa", 1, reject),
				revised("p1", "alice", 2), submitted("p1", "alice", 2),
				voted("p1", "rita", 2, approve, "e1", "e2")}),
			when: castVote("ravi", "p1", 2, approve, "e1", "e2"),
			want: changes(vote("p1", 2, approve, "e1", "e2"))},
		{name: "the voter lifts their veto by approving",
			given: cat(p1InReview(), []given{voted("p1", "rosa", 1, reject), voted("p1", "rita", 1, approve, "e1", "e2")}),
			when:  castVote("rosa", "p1", 1, approve, "e1"),
			want:  changes(carrying(vote("p1", 1, approve, "e1"), crossValidated(1, "rita", "rosa")))},
		{name: "the voter lifts a carried-over veto on the new revision",
			given: cat(p1InReview(), []given{voted("p1", "rosa", 1, reject),
				revised("p1", "alice", 2), submitted("p1", "alice", 2),
				voted("p1", "rita", 2, approve, "e1", "e2")}),
			when: castVote("rosa", "p1", 2, approve, "e1"),
			want: changes(carrying(vote("p1", 2, approve, "e1"), crossValidated(2, "rita", "rosa")))},
		{name: "a dismissed veto no longer blocks",
			given: cat(p1InReview(), []given{voted("p1", "rosa", 1, reject), dismissed("p1", "pat", "rosa"),
				voted("p1", "rita", 1, approve, "e1", "e2")}),
			when: castVote("ravi", "p1", 1, approve, "e1", "e2"),
			want: changes(carrying(vote("p1", 1, approve, "e1", "e2"), crossValidated(1, "ravi", "rita")))},
		{name: "a veto on a cross-validated proposal returns it to review",
			given: p1Validated(), when: castVote("rosa", "p1", 1, reject),
			want: changes(carrying(vote("p1", 1, reject), returnedForVeto()))},
		{name: "an approver turning to reject returns it to review",
			given: p1Validated(), when: castVote("rita", "p1", 1, reject),
			want: changes(carrying(vote("p1", 1, reject), returnedForVeto()))},
		{name: "a third approval of a cross-validated proposal is only a vote",
			given: p1Validated(), when: castVote("rosa", "p1", 1, approve, "e1"),
			want: changes(vote("p1", 1, approve, "e1"))},
		{name: "a reject drops the evidence it lists",
			given: p1InReview(), when: castVote("rita", "p1", 1, reject, "e1"),
			want: changes(vote("p1", 1, reject))},

		// --- revisions ---
		{name: "approvals of the previous revision are outdated",
			given: cat(p1Validated(), []given{revised("p1", "alice", 2), submitted("p1", "alice", 2)}),
			when:  castVote("rita", "p1", 2, approve, "e1", "e2"),
			want:  changes(vote("p1", 2, approve, "e1", "e2"))},
		{name: "vote on a stale revision",
			given: cat(p1InReview(), []given{revised("p1", "alice", 2), submitted("p1", "alice", 2)}),
			when:  castVote("rita", "p1", 1, approve, "e1", "e2"), err: domain.ErrStaleRevision},
		{name: "vote on a revision that does not exist yet",
			given: p1InReview(), when: castVote("rita", "p1", 2, approve, "e1", "e2"), err: domain.ErrStaleRevision},

		// --- states ---
		{name: "vote on a draft", given: p1Draft(),
			when: castVote("rita", "p1", 1, approve, "e1", "e2"), err: domain.ErrNotInReview},
		{name: "vote on a revised draft",
			given: cat(p1InReview(), []given{revised("p1", "alice", 2)}),
			when:  castVote("rita", "p1", 2, approve, "e1", "e2"), err: domain.ErrNotInReview},
		{name: "vote on a withdrawn proposal",
			given: cat(p1InReview(), []given{closedBy("p1", "alice", &events.ProposalWithdrawn{})}),
			when:  castVote("rita", "p1", 1, approve, "e1", "e2"), err: domain.ErrClosed},
		{name: "vote on a rejected proposal",
			given: cat(p1InReview(), []given{closedBy("p1", "pat", &events.ProposalRejected{Reason: "no"})}),
			when:  castVote("rita", "p1", 1, reject), err: domain.ErrClosed},
		{name: "vote on a published proposal",
			given: cat(p1Validated(), []given{closedBy("p1", "pat", &events.ProposalPublished{Edition: 2, Revision: 1})}),
			when:  castVote("rosa", "p1", 1, reject), err: domain.ErrClosed},
		{name: "vote on a proposal that does not exist",
			given: defined(), when: castVote("rita", "p9", 1, approve), err: domain.ErrProposalMissing},

		// --- roles and input ---
		{name: "an editor cannot vote", given: p1InReview(),
			when: castVote("bob", "p1", 1, approve, "e1", "e2"), err: domain.ErrRoleRequired},
		{name: "a publisher cannot vote", given: p1InReview(),
			when: castVote("pat", "p1", 1, approve, "e1", "e2"), err: domain.ErrRoleRequired},
		{name: "a user without roles cannot vote", given: p1InReview(),
			when: castVote("nobody", "p1", 1, approve), err: domain.ErrRoleRequired},
		{name: "verifying unknown evidence", given: p1InReview(),
			when: castVote("rita", "p1", 1, approve, "e1", "e7"), err: domain.ErrUnknownEvidence},
		{name: "verifying the same item twice", given: p1InReview(),
			when: castVote("rita", "p1", 1, approve, "e1", "e1"), err: domain.ErrInvalid},
		{name: "a reject needs a reason", given: p1InReview(),
			when: func(w *world) ([]domain.Change, error) {
				return domain.DecideCastVote(w.ranking, w.edition, w.prop("p1"), actor("rita"),
					domain.CastVote{Proposal: "p1", Revision: 1, Verdict: reject, Comment: "  "})
			}, err: domain.ErrInvalid},
		{name: "an unknown verdict", given: p1InReview(),
			when: castVote("rita", "p1", 1, "abstain"), err: domain.ErrInvalid},
	})
}

func TestDecideCastVotePolicy(t *testing.T) {
	three := rankingDefinition()
	three.Quorum = events.QuorumPolicy{MinApprovals: 3, RequireEvidenceVerified: true}
	lax := rankingDefinition()
	lax.Quorum = events.QuorumPolicy{MinApprovals: 1, RequireEvidenceVerified: false}
	withPolicy := func(d events.RankingDefined) []given {
		return cat([]given{{"pat", domain.RankingID(rk), &d}}, p1InReview()[1:])
	}
	runDecide(t, []decideTest{
		{name: "three approvals needed: two are not enough",
			given: cat(withPolicy(three), []given{voted("p1", "rita", 1, approve, "e1", "e2")}),
			when:  castVote("ravi", "p1", 1, approve, "e1", "e2"),
			want:  changes(vote("p1", 1, approve, "e1", "e2"))},
		{name: "three approvals needed: the third validates",
			given: cat(withPolicy(three), []given{voted("p1", "rita", 1, approve, "e1", "e2"), voted("p1", "ravi", 1, approve)}),
			when:  castVote("rosa", "p1", 1, approve),
			want:  changes(carrying(vote("p1", 1, approve), crossValidated(1, "ravi", "rita", "rosa")))},
		// A policy below the floor (stated before the floor existed: its
		// events still replay) is judged by the floor.
		{name: "a policy below the floor: one approval is only a vote",
			given: withPolicy(lax), when: castVote("rita", "p1", 1, approve, "e1", "e2"),
			want: changes(vote("p1", 1, approve, "e1", "e2"))},
		{name: "a policy below the floor: two approvals must verify every evidence item",
			given: cat(withPolicy(lax), []given{voted("p1", "rita", 1, approve)}),
			when:  castVote("ravi", "p1", 1, approve, "e1"),
			want:  changes(vote("p1", 1, approve, "e1"))},
		{name: "a policy below the floor: the floor's quorum validates",
			given: cat(withPolicy(lax), []given{voted("p1", "rita", 1, approve, "e1")}),
			when:  castVote("ravi", "p1", 1, approve, "e2"),
			want:  changes(carrying(vote("p1", 1, approve, "e2"), crossValidated(1, "ravi", "rita")))},
		{name: "a lax policy still honours a veto",
			given: cat(withPolicy(lax), []given{voted("p1", "rosa", 1, reject)}),
			when:  castVote("rita", "p1", 1, approve),
			want:  changes(vote("p1", 1, approve))},
	})
}

func dismissVeto(who, voter, reason string) func(w *world) ([]domain.Change, error) {
	return func(w *world) ([]domain.Change, error) {
		return domain.DecideDismissVeto(w.ranking, w.edition, w.prop("p1"), actor(who),
			domain.DismissVeto{Proposal: "p1", Voter: voter, Reason: reason})
	}
}

func vetoDismissed(voter, reason string) domain.Change {
	return domain.Change{Aggregate: domain.ProposalID("p1"), Data: &events.VetoDismissed{Voter: voter, Reason: reason}}
}

func TestDecideDismissVeto(t *testing.T) {
	vetoed := cat(p1InReview(), []given{voted("p1", "rosa", 1, reject),
		voted("p1", "rita", 1, approve, "e1", "e2"), voted("p1", "ravi", 1, approve, "e1", "e2")})
	runDecide(t, []decideTest{
		{name: "a publisher dismisses the only obstacle: the quorum is met",
			given: vetoed, when: dismissVeto("pat", "rosa", "misread the source"),
			want: changes(carrying(vetoDismissed("rosa", "misread the source"), crossValidated(1, "ravi", "rita")))},
		{name: "a dismissal without a quorum is only recorded",
			given: cat(p1InReview(), []given{voted("p1", "rosa", 1, reject)}),
			when:  dismissVeto("pat", "rosa", "misread the source"),
			want:  changes(vetoDismissed("rosa", "misread the source"))},
		{name: "a carried-over veto can be dismissed on the draft",
			given: cat(p1InReview(), []given{voted("p1", "rosa", 1, reject), revised("p1", "alice", 2)}),
			when:  dismissVeto("pat", "rosa", "fixed in revision 2"),
			want:  changes(vetoDismissed("rosa", "fixed in revision 2"))},
		{name: "a reason is required", given: vetoed, when: dismissVeto("pat", "rosa", " "), err: domain.ErrInvalid},
		{name: "a reviewer cannot dismiss another's veto", given: vetoed,
			when: dismissVeto("rita", "rosa", "I disagree"), err: domain.ErrRoleRequired},
		{name: "an editor cannot dismiss a veto", given: vetoed,
			when: dismissVeto("alice", "rosa", "I disagree"), err: domain.ErrRoleRequired},
		{name: "a publisher who wrote the proposal cannot dismiss its veto",
			given: cat(defined(), []given{opened("p1", "paula", "acme"), evidence("p1", "paula", "e1", 1),
				score("p1", "paula", 1, "price", ptr(5), 7, "e1"), submitted("p1", "paula", 1), voted("p1", "rosa", 1, reject)}),
			when: dismissVeto("paula", "rosa", "I disagree"), err: domain.ErrSelfPublish},
		{name: "a publisher who revised the proposal cannot dismiss its veto",
			given: cat(p1InReview(), []given{voted("p1", "rosa", 1, reject), revised("p1", "paula", 2)}),
			when:  dismissVeto("paula", "rosa", "I disagree"), err: domain.ErrSelfPublish},
		{name: "an approval is not a veto", given: vetoed,
			when: dismissVeto("pat", "rita", "why not"), err: domain.ErrNoVeto},
		{name: "a veto is dismissed once",
			given: cat(vetoed, []given{dismissed("p1", "pat", "rosa")}),
			when:  dismissVeto("pat", "rosa", "again"), err: domain.ErrNoVeto},
		{name: "nobody voted", given: p1InReview(),
			when: dismissVeto("pat", "rosa", "why not"), err: domain.ErrNoVeto},
		{name: "closed proposal",
			given: cat(vetoed, []given{closedBy("p1", "alice", &events.ProposalWithdrawn{})}),
			when:  dismissVeto("pat", "rosa", "misread"), err: domain.ErrClosed},
	})
}

// TestDismissedVetoIsRecorded: the dismissal stays on the vote, with who
// and why, and a later reject by the same reviewer is a new veto.
func TestDismissedVetoIsRecorded(t *testing.T) {
	w := newWorld(t, p1InReview(), []given{voted("p1", "rosa", 1, reject), dismissed("p1", "pat", "rosa")})
	v := w.prop("p1").Votes["rosa"]
	if v == nil || !v.Dismissed || v.DismissBy != "pat" || v.DismissOn != "the source was misread" {
		t.Fatalf("rosa's vote = %+v, want dismissed by pat with the reason", v)
	}
	if q := domain.Quorum(w.prop("p1"), w.ranking.Quorum, w.edition); len(q.Vetoes) != 0 {
		t.Errorf("Vetoes = %v after the dismissal, want none", q.Vetoes)
	}
	w.apply("rosa", domain.ProposalID("p1"), &events.VoteCast{Revision: 1, Verdict: reject, Comment: "still wrong"})
	if q := domain.Quorum(w.prop("p1"), w.ranking.Quorum, w.edition); !reflect.DeepEqual(q.Vetoes, []string{"rosa"}) {
		t.Errorf("Vetoes = %v after a new reject, want [rosa]", q.Vetoes)
	}
}

// TestQuorumState checks what the review page shows: who counts, who is
// outdated or ineligible, what is unverified, and whether the quorum is met.
func TestQuorumState(t *testing.T) {
	tests := []struct {
		name  string
		given []given
		want  domain.QuorumState
	}{
		{"nothing yet", p1InReview(),
			domain.QuorumState{Needed: 2, Unverified: []string{"e1", "e2"}}},
		{"one approval", cat(p1InReview(), []given{voted("p1", "rita", 1, approve, "e1")}),
			domain.QuorumState{Approvers: []string{"rita"}, Needed: 1, Unverified: []string{"e2"}}},
		{"the same reviewer twice", cat(p1InReview(), []given{
			voted("p1", "rita", 1, approve, "e1"), voted("p1", "rita", 1, approve, "e1", "e2")}),
			domain.QuorumState{Approvers: []string{"rita"}, Needed: 1}},
		{"a later reject replaces an approval", cat(p1InReview(), []given{
			voted("p1", "rita", 1, approve, "e1", "e2"), voted("p1", "rita", 1, reject)}),
			domain.QuorumState{Needed: 2, Unverified: []string{"e1", "e2"}, Vetoes: []string{"rita"}}},
		{"met", p1Validated(),
			domain.QuorumState{Approvers: []string{"ravi", "rita"}, Met: true}},
		{"revising outdates approvals and never vetoes", cat(p1Validated(), []given{revised("p1", "alice", 2)}),
			domain.QuorumState{Needed: 2, Unverified: []string{"e1", "e2"}, Outdated: []string{"ravi", "rita"}}},
		{"a veto carries over, approvals are outdated", cat(p1InReview(), []given{
			voted("p1", "rosa", 1, reject), voted("p1", "rita", 1, approve, "e1", "e2"),
			revised("p1", "alice", 2), submitted("p1", "alice", 2)}),
			domain.QuorumState{Needed: 2, Unverified: []string{"e1", "e2"}, Vetoes: []string{"rosa"}, Outdated: []string{"rita"}}},
		{"a reviser's approval is ineligible", cat(p1InReview(), []given{
			voted("p1", "rex", 1, approve, "e1", "e2"), voted("p1", "rita", 1, approve, "e1", "e2"),
			revised("p1", "rex", 2), submitted("p1", "alice", 2), voted("p1", "rita", 2, approve, "e1", "e2")}),
			domain.QuorumState{Approvers: []string{"rita"}, Needed: 1, Ineligible: []string{"rex"}}},
		{"the baseline was published over", cat(p1Validated(), []given{
			{"pat", domain.EditionID(rk), &events.EditionPublished{Ranking: rk, Number: 2, Proposals: []string{"p2"},
				Changes: []events.AppliedChange{{Proposal: "p2", Entry: "acme", Target: "score:price",
					FromScore: ptr(5), ToScore: ptr(6), Evidence: []string{"e1"}}}}}}),
			domain.QuorumState{Approvers: []string{"ravi", "rita"}, StaleTarget: []string{"score:price"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t, tt.given)
			got := domain.Quorum(w.prop("p1"), w.ranking.Quorum, w.edition)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Quorum:\n got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

// TestQuorumZeroPolicy: a ranking stored without a policy gets the default.
func TestQuorumZeroPolicy(t *testing.T) {
	w := newWorld(t, p1InReview(), []given{voted("p1", "rita", 1, approve, "e1", "e2")})
	got := domain.Quorum(w.prop("p1"), events.QuorumPolicy{}, nil)
	if got.Needed != 1 || got.Met {
		t.Errorf("Quorum with the zero policy = %+v, want one more approval needed", got)
	}
}
