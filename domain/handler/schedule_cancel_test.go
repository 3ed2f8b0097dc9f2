package handler_test

import (
	"errors"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events"
)

// TestCancelScheduleFollowsPublishing: cancelling a scheduled edition is a
// publishing decision, so a publisher who wrote or revised one of its
// proposals may not cancel it (as they may not publish it); another
// publisher may, and the cancellation is recorded with its actor.
func TestCancelScheduleFollowsPublishing(t *testing.T) {
	ctx := testCtx(t)
	st := newStore(t)
	now := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	h := handler.New(st, func() time.Time { return now })
	desk(t, ctx, h, st)
	registerAll(t, h)
	// paula, an editor who also publishes, revises p1: she may not publish it.
	must(t)(h.Revise(ctx, actor("paula"), domain.Revise{CommandID: newCommandID(), Proposal: "p1", Note: "a better source"}))
	must(t)(h.Submit(ctx, actor("paula"), domain.Submit{CommandID: newCommandID(), Proposal: "p1"}))
	for _, r := range []string{"rita", "ravi"} {
		v := approveAll("p1")
		v.Revision = 2
		must(t)(h.CastVote(ctx, actor(r), v))
	}
	pv, _, err := h.PreviewEdition(ctx, rk, []string{"p1"})
	if err != nil {
		t.Fatal(err)
	}
	must(t)(h.ScheduleEdition(ctx, actor("pat"), domain.ScheduleEdition{CommandID: newCommandID(), Ranking: rk, Schedule: "s1",
		Proposals: []string{"p1"}, PreviewHash: pv.Hash, At: now.Add(time.Hour)}))

	cancel := domain.CancelSchedule{CommandID: newCommandID(), Ranking: rk, Schedule: "s1", Reason: "not yet"}
	if _, err := h.CancelSchedule(ctx, actor("paula"), cancel); !errors.Is(err, domain.ErrSelfPublish) {
		t.Fatalf("the reviser cancels the schedule of her own proposal: %v, want %v", err, domain.ErrSelfPublish)
	}
	if ed, _ := h.Edition(ctx, rk); ed.Schedules["s1"].State != domain.SchedulePending {
		t.Fatalf("after a refused cancel: schedule %+v, want pending", ed.Schedules["s1"])
	}
	cancel.CommandID = newCommandID()
	must(t)(h.CancelSchedule(ctx, actor("pat"), cancel))
	ed, _ := h.Edition(ctx, rk)
	if s := ed.Schedules["s1"]; s.State != domain.ScheduleCanceled || s.Detail != "not yet" {
		t.Errorf("after pat cancels: schedule %+v, want canceled with the reason", s)
	}
	evs, err := st.Load(ctx, domain.EditionID(rk), 0)
	if err != nil {
		t.Fatal(err)
	}
	if last := evs[len(evs)-1]; last.Type != events.TypeEditionScheduleCanceled || last.Actor != "pat" {
		t.Errorf("the last edition event: %s by %s, want the cancellation by pat", last.Type, last.Actor)
	}
}
