package handler_test

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
)

// registerAll registers every test actor as a user with their roles.
func registerAll(t testing.TB, h *handler.Handler) {
	t.Helper()
	for name, a := range actors {
		if len(a.Roles) == 0 {
			continue
		}
		must(t)(h.RegisterUser(testCtx(t), domain.System(), domain.RegisterUser{CommandID: newCommandID(), Username: name,
			DisplayName: name, PasswordHash: "$argon2id$v=19$m=65536,t=3,p=4$x$y", Roles: a.Roles}))
	}
}

// TestReviewersAndAttention: requested reviewers are in the attention set
// until they vote on the current revision; the author is while a veto or a
// reviewer's comment is open. Requests name reviewers who may review.
func TestReviewersAndAttention(t *testing.T) {
	ctx := testCtx(t)
	st := newStore(t)
	h := handler.New(st, nil)
	desk(t, ctx, h, st)
	registerAll(t, h)

	for _, tt := range []struct {
		name      string
		reviewers []string
		code      string
	}{
		{"not a user", []string{"zed"}, "reviewers.unknown"},
		{"not a reviewer", []string{"bob"}, "reviewers.not_reviewer"},
		{"the author", []string{"eve", "alice"}, "reviewers.not_reviewer"},
		{"none", nil, "reviewers.count"},
	} {
		var fe *domain.FieldError
		_, err := h.RequestReviewers(ctx, actor("bob"), domain.RequestReviewers{CommandID: newCommandID(), Proposal: "p1", Reviewers: tt.reviewers})
		if !errors.As(err, &fe) || fe.Code != tt.code {
			t.Errorf("%s: %v, want %s", tt.name, err, tt.code)
		}
	}
	if _, err := h.RequestReviewers(ctx, actor("rita"), domain.RequestReviewers{CommandID: newCommandID(), Proposal: "p1",
		Reviewers: []string{"ravi"}}); !errors.Is(err, domain.ErrRoleRequired) {
		t.Errorf("a reviewer requesting reviews: %v, want ErrRoleRequired", err)
	}
	must(t)(h.RequestReviewers(ctx, actor("bob"), domain.RequestReviewers{CommandID: newCommandID(), Proposal: "p1", Reviewers: []string{"rita", "ravi"}}))
	p, _ := h.Proposal(ctx, "p1")
	if got := p.AttentionSet(); !slices.Equal(got, []string{"ravi", "rita"}) {
		t.Errorf("attention set after the request = %v, want ravi and rita", got)
	}
	must(t)(h.CastVote(ctx, actor("rita"), approveAll("p1")))
	must(t)(h.CastVote(ctx, actor("ravi"), domain.CastVote{CommandID: newCommandID(), Proposal: "p1", Revision: 1, Verdict: reject, Comment: "source?"}))
	p, _ = h.Proposal(ctx, "p1")
	if got := p.AttentionSet(); !slices.Equal(got, []string{"alice"}) {
		t.Errorf("attention set after an approval and a veto = %v, want the author", got)
	}

	// Comments: on a change, a reply, resolved by the rules.
	must(t)(h.AddComment(ctx, actor("rita"), domain.AddComment{CommandID: newCommandID(), Proposal: "p1", On: "score:price", Body: "Which plan?"}))
	must(t)(h.AddComment(ctx, actor("alice"), domain.AddComment{CommandID: newCommandID(), Proposal: "p1", ReplyTo: "c1", Body: "The hourly one."}))
	var fe *domain.FieldError
	if _, err := h.AddComment(ctx, actor("rita"), domain.AddComment{CommandID: newCommandID(), Proposal: "p1", On: "score:speed", Body: "x"}); !errors.As(err, &fe) || fe.Code != "comment.unknown_target" {
		t.Errorf("a comment on a change the proposal lacks: %v", err)
	}
	if _, err := h.AddComment(ctx, actor("ada"), domain.AddComment{CommandID: newCommandID(), Proposal: "p1", Body: "hi"}); !errors.Is(err, domain.ErrRoleRequired) {
		t.Errorf("a comment by the user administrator: %v, want ErrRoleRequired", err)
	}
	if _, err := h.ResolveComment(ctx, actor("ravi"), domain.ResolveComment{CommandID: newCommandID(), Proposal: "p1", Comment: "c1"}); !errors.Is(err, domain.ErrNotCommentAuthor) {
		t.Errorf("resolving another's comment on another's proposal: %v", err)
	}
	p, _ = h.Proposal(ctx, "p1")
	if q := domain.Quorum(p, domain.DefaultQuorum, nil); !slices.Equal(q.OpenComments, []string{"c1"}) {
		t.Errorf("open reviewer comments = %v, want c1", q.OpenComments)
	}
	must(t)(h.ResolveComment(ctx, actor("alice"), domain.ResolveComment{CommandID: newCommandID(), Proposal: "p1", Comment: "c1"}))
	if _, err := h.ResolveComment(ctx, actor("rita"), domain.ResolveComment{CommandID: newCommandID(), Proposal: "p1", Comment: "c1"}); !errors.Is(err, domain.ErrCommentResolved) {
		t.Errorf("resolving twice: %v", err)
	}
}

// TestConflictOfInterest: a reviewer's approval of an entry they declared a
// conflict with does not count, and an edition cannot publish on it.
func TestConflictOfInterest(t *testing.T) {
	ctx := testCtx(t)
	st := newStore(t)
	h := handler.New(st, nil)
	desk(t, ctx, h, st)
	must(t)(h.CastVote(ctx, actor("rita"), approveAll("p1")))
	must(t)(h.CastVote(ctx, actor("ravi"), approveAll("p1")))
	if p, _ := h.Proposal(ctx, "p1"); p.Status != domain.StatusCrossValidated {
		t.Fatalf("p1 is %s", p.Status)
	}
	if _, err := h.DeclareConflict(ctx, actor("alice"), domain.DeclareConflict{CommandID: newCommandID(), Ranking: rk, Entry: "nova", Reason: "x"}); !errors.Is(err, domain.ErrRoleRequired) {
		t.Errorf("an editor declaring a conflict: %v", err)
	}
	if _, err := h.DeclareConflict(ctx, actor("ravi"), domain.DeclareConflict{CommandID: newCommandID(), Ranking: rk, Entry: "nova", Reason: "x", User: "alice"}); !errors.Is(err, domain.ErrConflictForOther) {
		t.Errorf("declaring a conflict for someone else: %v", err)
	}
	must(t)(h.DeclareConflict(ctx, actor("ravi"), domain.DeclareConflict{CommandID: newCommandID(), Ranking: rk, Entry: "nova", Reason: "I consult for Nova.", User: "ravi"}))
	if _, err := h.DeclareConflict(ctx, actor("ravi"), domain.DeclareConflict{CommandID: newCommandID(), Ranking: rk, Entry: "nova", Reason: "again"}); !errors.Is(err, domain.ErrConflictDeclared) {
		t.Errorf("declaring twice: %v", err)
	}
	r, _ := h.Ranking(ctx, rk)
	ed, _ := h.Edition(ctx, rk)
	p, _ := h.Proposal(ctx, "p1")
	q := r.QuorumOf(p, ed)
	if q.Met || q.Conflicted["ravi"] != "I consult for Nova." || slices.Contains(q.Approvers, "ravi") {
		t.Errorf("quorum after ravi's declaration = %+v, want ravi's approval not counted, with the reason", q)
	}
	if _, _, err := h.PreviewEdition(ctx, rk, []string{"p1"}); !errors.Is(err, domain.ErrNotCrossValidated) {
		t.Errorf("previewing a proposal that lost its quorum to a conflict: %v", err)
	}
	// A third reviewer restores the quorum.
	must(t)(h.CastVote(ctx, actor("rosa"), approveAll("p1")))
	if _, _, err := h.PreviewEdition(ctx, rk, []string{"p1"}); err != nil {
		t.Errorf("preview with a third approval: %v", err)
	}
}

// TestScheduledEdition: a schedule is checked like a publish; firing it
// publishes once, as the publisher, and a proposal revised in between makes
// it fail instead.
func TestScheduledEdition(t *testing.T) {
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
	shanghai := time.FixedZone("CST", 8*3600)
	sched := func(id string, at time.Time, hash string) error {
		_, err := h.ScheduleEdition(ctx, actor("pat"), domain.ScheduleEdition{CommandID: newCommandID(), Ranking: rk, Schedule: id,
			Proposals: []string{"p1"}, PreviewHash: hash, At: at})
		return err
	}
	var fe *domain.FieldError
	if err := sched("s0", now.Add(-time.Minute), pv.Hash); !errors.As(err, &fe) || fe.Code != "schedule.past" {
		t.Errorf("scheduling in the past: %v", err)
	}
	if err := sched("s0", now.AddDate(1, 0, 2), pv.Hash); !errors.As(err, &fe) || fe.Code != "schedule.too_far" {
		t.Errorf("scheduling more than a year ahead: %v", err)
	}
	if err := sched("s0", now.Add(time.Hour), "00"+pv.Hash[2:]); !errors.Is(err, domain.ErrPreviewChanged) {
		t.Errorf("scheduling with another preview: %v", err)
	}
	if err := sched("s1", now.Add(time.Hour).In(shanghai), pv.Hash); err != nil {
		t.Fatal(err)
	}
	ed, _ := h.Edition(ctx, rk)
	if s := ed.Schedules["s1"]; s == nil || s.State != domain.SchedulePending || s.By != "pat" || s.At != "2026-11-30T18:00:00+08:00" {
		t.Fatalf("schedule s1 = %+v", s)
	}
	fire := domain.FireSchedule{CommandID: "fire-s1", Ranking: rk, Schedule: "s1"}
	must(t)(h.FireSchedule(ctx, fire))
	fire.CommandID = "fire-s1-again"
	if res := must(t)(h.FireSchedule(ctx, fire)); len(res.EventIDs) != 0 {
		t.Errorf("firing twice appended %v", res.EventIDs)
	}
	ed, _ = h.Edition(ctx, rk)
	if ed.Number != 1 || ed.Last.Schedule != "s1" || ed.Schedules["s1"].State != domain.SchedulePublished {
		t.Fatalf("after firing: edition %d, schedule %q, state %s", ed.Number, ed.Last.Schedule, ed.Schedules["s1"].State)
	}
	types := storedTypes(t, ctx, st, domain.EditionID(rk))
	if count(types, "published") != 1 {
		t.Errorf("edition events %v, want one published", types)
	}
}

// TestScheduledEditionFailsWhenRevised: a proposal revised after the
// schedule makes the firing record why instead of publishing.
func TestScheduledEditionFailsWhenRevised(t *testing.T) {
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
	must(t)(h.Revise(ctx, actor("alice"), domain.Revise{CommandID: newCommandID(), Proposal: "p1", Note: "one more source"}))
	must(t)(h.FireSchedule(ctx, domain.FireSchedule{CommandID: "fire-s1", Ranking: rk, Schedule: "s1"}))
	ed, _ := h.Edition(ctx, rk)
	s := ed.Schedules["s1"]
	if ed.Number != 0 || s.State != domain.ScheduleFailed || s.Code != "schedule.revised" || s.Detail != "p1" {
		t.Errorf("after firing a revised schedule: edition %d, schedule %+v", ed.Number, s)
	}
	if _, err := h.CancelSchedule(ctx, actor("pat"), domain.CancelSchedule{CommandID: newCommandID(), Ranking: rk, Schedule: "s1"}); !errors.Is(err, domain.ErrScheduleDone) {
		t.Errorf("canceling a failed schedule: %v", err)
	}
}
