package handler_test

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
)

// TestApprovalCountsWhileVoterReviews: an approval stops counting when its
// voter's reviewer role is revoked; the preview, the publish, a scheduled
// edition and the quorum explanation all agree, and a new approval by a
// current reviewer restores the quorum.
func TestApprovalCountsWhileVoterReviews(t *testing.T) {
	ctx := testCtx(t)
	st := newStore(t)
	now := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	h := handler.New(st, func() time.Time { return now })
	desk(t, ctx, h, st)
	registerAll(t, h)
	must(t)(h.CastVote(ctx, actor("rita"), approveAll("p1")))
	must(t)(h.CastVote(ctx, actor("ravi"), approveAll("p1")))
	pv, _, err := h.PreviewEdition(ctx, rk, []string{"p1"})
	if err != nil {
		t.Fatal(err)
	}
	must(t)(h.ScheduleEdition(ctx, actor("pat"), domain.ScheduleEdition{CommandID: newCommandID(), Ranking: rk, Schedule: "s1",
		Proposals: []string{"p1"}, PreviewHash: pv.Hash, At: now.Add(time.Hour)}))

	must(t)(h.RevokeRole(ctx, actor("ada"), domain.RevokeRole{CommandID: newCommandID(), User: "ravi", Role: domain.RoleReviewer}))

	p, err := h.Proposal(ctx, "p1")
	if err != nil {
		t.Fatal(err)
	}
	r, _ := h.Ranking(ctx, rk)
	ed, _ := h.Edition(ctx, rk)
	q, err := h.QuorumNow(ctx, r, ed, p)
	if err != nil {
		t.Fatal(err)
	}
	if q.Met || q.Needed != 1 || !slices.Equal(q.Revoked, []string{"ravi"}) || !slices.Equal(q.Approvers, []string{"rita"}) {
		t.Errorf("quorum after revoking ravi = %+v, want rita approving, ravi revoked, one more needed", q)
	}
	if _, _, err := h.PreviewEdition(ctx, rk, []string{"p1"}); !errors.Is(err, domain.ErrNotCrossValidated) {
		t.Errorf("preview after revoking an approver: %v, want %v", err, domain.ErrNotCrossValidated)
	}
	if _, err := h.Publish(ctx, actor("pat"), domain.PublishEdition{CommandID: newCommandID(), Ranking: rk,
		Proposals: []string{"p1"}, PreviewHash: pv.Hash}); !errors.Is(err, domain.ErrNotCrossValidated) {
		t.Errorf("publish after revoking an approver: %v, want %v", err, domain.ErrNotCrossValidated)
	}
	must(t)(h.FireSchedule(ctx, domain.FireSchedule{CommandID: "fire-s1", Ranking: rk, Schedule: "s1"}))
	ed, _ = h.Edition(ctx, rk)
	if s := ed.Schedules["s1"]; ed.Number != 0 || s.State != domain.ScheduleFailed || s.Code != "proposal.not_cross_validated" {
		t.Errorf("the scheduled edition after revoking an approver: edition %d, schedule %+v", ed.Number, s)
	}

	// Another reviewer approves: the quorum holds again, and it publishes.
	must(t)(h.CastVote(ctx, actor("rosa"), approveAll("p1")))
	pv, _, err = h.PreviewEdition(ctx, rk, []string{"p1"})
	if err != nil {
		t.Fatalf("preview with rosa's approval: %v", err)
	}
	must(t)(h.Publish(ctx, actor("pat"), domain.PublishEdition{CommandID: newCommandID(), Ranking: rk,
		Proposals: []string{"p1"}, PreviewHash: pv.Hash}))
}

// TestRevokedApproverDoesNotCompleteQuorum: a vote's own quorum check
// already leaves out an approval whose voter lost the reviewer role.
func TestRevokedApproverDoesNotCompleteQuorum(t *testing.T) {
	ctx := testCtx(t)
	st := newStore(t)
	h := handler.New(st, nil)
	desk(t, ctx, h, st)
	registerAll(t, h)
	must(t)(h.CastVote(ctx, actor("rita"), approveAll("p1")))
	must(t)(h.RevokeRole(ctx, actor("ada"), domain.RevokeRole{CommandID: newCommandID(), User: "rita", Role: domain.RoleReviewer}))
	must(t)(h.CastVote(ctx, actor("ravi"), approveAll("p1")))
	if p, _ := h.Proposal(ctx, "p1"); p.Status != domain.StatusInReview {
		t.Errorf("after ravi's approval beside rita's revoked one: %s, want in review", p.Status)
	}
}
