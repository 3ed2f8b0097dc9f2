package projections_test

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/events/jetstream/jstest"
	"github.com/crossrank/crossrank/projections"
)

// liveDesk is a desk whose history was written through the real commands
// while the read models tailed the stream (Store.Run), as in production.
type liveDesk struct {
	env  *jstest.Env
	h    *handler.Handler
	ps   *projections.Store
	path string
	stop func() // stops Run and waits for it
}

var (
	publisher = domain.Actor{Name: "publisher", Roles: []string{domain.RolePublisher}}
	editor    = domain.Actor{Name: "editor", Roles: []string{domain.RoleEditor}}
	admin     = domain.Actor{Name: "admin", Roles: []string{domain.RoleAdmin}}
)

func reviewer(name string) domain.Actor {
	return domain.Actor{Name: name, Roles: []string{domain.RoleReviewer}}
}

// startLiveDesk starts an embedded store and read models at path tailing it.
func startLiveDesk(t *testing.T, path string) *liveDesk {
	t.Helper()
	d := &liveDesk{env: jstest.Start(t), path: path}
	d.h = handler.New(d.env.Store, nil)
	d.ps = open(t, path)
	runCtx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var once sync.Once
	wg.Go(func() {
		if err := d.ps.Run(runCtx, d.env.Store, nil); err != nil {
			t.Errorf("run: %v", err)
		}
	})
	d.stop = func() { once.Do(func() { cancel(); wg.Wait() }) }
	t.Cleanup(d.stop) // runs before open's Close: cleanups run last-in first-out
	return d
}

// catchUp waits until the read models have applied the whole stream.
func (d *liveDesk) catchUp(t *testing.T) uint64 {
	t.Helper()
	ctx := testContext(t)
	last, err := d.env.Store.LastSequence(ctx)
	if err != nil {
		t.Fatal(err)
	}
	waitApplied(t, d.ps, last)
	return last
}

// do runs a command and fails the test on error.
func do(t *testing.T, what string) func(handler.Result, error) handler.Result {
	return func(res handler.Result, err error) handler.Result {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		return res
	}
}

// richHistory writes the demo seed and then what a desk does in its second
// week: a veto answered by a revision, a veto a publisher dismisses, a
// withdrawal, a rejection, a competing proposal whose publication returns
// a cross-validated proposal to review, new weights, a second edition,
// account changes and webhook deliveries.
func richHistory(t *testing.T, d *liveDesk) {
	t.Helper()
	ctx := testContext(t)
	h := d.h
	if _, err := demo.Seed(ctx, h, demo.Options{Password: "pw", HashPassword: fakeHash, Now: time.Now(),
		AuditHead: d.ps.AuditHead, CrossValidated: d.ps.CrossValidated}); err != nil {
		t.Fatal(err)
	}
	slug := demo.RankingSlug
	hash, _ := fakeHash("")

	// Accounts: a third reviewer, a role granted and revoked, a token
	// issued and revoked, a password changed.
	do(t, "register")(h.RegisterUser(ctx, domain.System(), domain.RegisterUser{CommandID: "x-user", Username: "reviewer3",
		DisplayName: "Reviewer 3", PasswordHash: hash, Roles: []string{domain.RoleReviewer}}))
	do(t, "grant")(h.GrantRole(ctx, admin, domain.GrantRole{CommandID: "x-grant", User: "reviewer3", Role: domain.RoleEditor}))
	do(t, "revoke role")(h.RevokeRole(ctx, admin, domain.RevokeRole{CommandID: "x-revoke", User: "reviewer3", Role: domain.RoleEditor}))
	do(t, "token")(h.IssueToken(ctx, editor, domain.IssueToken{CommandID: "x-token", User: "editor", TokenID: "tok-ci", Name: "CI",
		Hash: strings.Repeat("ab", 32), ExpiresAt: time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)}))
	do(t, "revoke token")(h.RevokeToken(ctx, editor, domain.RevokeToken{CommandID: "x-token-revoke", User: "editor", TokenID: "tok-ci"}))
	do(t, "password")(h.ChangePassword(ctx, editor, domain.ChangePassword{CommandID: "x-password", User: "editor", PasswordHash: hash}))

	approveAll := func(id, voter, key string) {
		t.Helper()
		p, err := h.Proposal(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		do(t, key)(h.CastVote(ctx, reviewer(voter), domain.CastVote{CommandID: key, Proposal: id, Revision: p.Revision,
			Verdict: events.Approve, VerifiedEvidence: p.EvidenceIDs()}))
	}
	// open drafts a proposal on a published entry with one score change.
	open := func(id, entry, criterion string, to int) {
		t.Helper()
		do(t, id)(h.OpenProposal(ctx, editor, domain.OpenProposal{CommandID: id + "-open", ID: id, Ranking: slug, Entry: entry,
			Title: "Second look at " + entry}))
		do(t, id)(h.AddEvidence(ctx, editor, domain.AddEvidence{CommandID: id + "-ev", Proposal: id, Claim: events.Text{En: "Pricing page"},
			SourceURL: "https://example.com/" + entry, Excerpt: "Billed by the second.", ObservedOn: "2026-01-10", ValidForDays: 90}))
		do(t, id)(h.AddEvidence(ctx, editor, domain.AddEvidence{CommandID: id + "-ev2", Proposal: id, Claim: events.Text{En: "Added by mistake"},
			SourceName: "A note", Excerpt: "Nothing.", ObservedOn: "2026-01-10"}))
		do(t, id)(h.RemoveEvidence(ctx, editor, domain.RemoveEvidence{CommandID: id + "-ev2-remove", Proposal: id, Evidence: "e2"}))
		do(t, id)(h.ProposeScore(ctx, editor, domain.ProposeScore{CommandID: id + "-score", Proposal: id, Criterion: criterion,
			To: to, Rationale: events.Text{En: "See the pricing page."}, Evidence: []string{"e1"}}))
		do(t, id)(h.Submit(ctx, editor, domain.Submit{CommandID: id + "-submit", Proposal: id}))
	}

	// A veto answered by a revision (the held-back proposal in review).
	hw := "demo-huawei-cloud-2"
	do(t, "veto")(h.CastVote(ctx, reviewer("reviewer2"), domain.CastVote{CommandID: "x-hw-veto", Proposal: hw, Revision: 1,
		Verdict: events.Reject, Comment: "The excerpt is about another product."}))
	do(t, "revise")(h.Revise(ctx, editor, domain.Revise{CommandID: "x-hw-revise", Proposal: hw, Note: "A better excerpt."}))
	do(t, "resubmit")(h.Submit(ctx, editor, domain.Submit{CommandID: "x-hw-resubmit", Proposal: hw}))
	approveAll(hw, "reviewer2", "x-hw-approve2")
	approveAll(hw, "reviewer1", "x-hw-approve1")

	// A veto dismissed by a publisher, then a third approval.
	open("x-ppio", "ppio", demo.CritElasticity, 6)
	approveAll("x-ppio", "reviewer1", "x-ppio-approve1")
	do(t, "veto")(h.CastVote(ctx, reviewer("reviewer2"), domain.CastVote{CommandID: "x-ppio-veto", Proposal: "x-ppio", Revision: 1,
		Verdict: events.Reject, Comment: "Not convinced."}))
	do(t, "dismiss")(h.DismissVeto(ctx, publisher, domain.DismissVeto{CommandID: "x-ppio-dismiss", Proposal: "x-ppio", Voter: "reviewer2", Reason: "The pricing page says so."}))
	approveAll("x-ppio", "reviewer3", "x-ppio-approve3")

	// A withdrawal (the editor's draft) and a rejection.
	do(t, "withdraw")(h.Withdraw(ctx, editor, domain.Withdraw{CommandID: "x-matpool-withdraw", Proposal: "demo-matpool-2", Reason: "Superseded."}))
	open("x-aliyun", "aliyun", demo.CritOnboarding, 2)
	do(t, "reject")(h.Reject(ctx, publisher, domain.Reject{CommandID: "x-aliyun-reject", Proposal: "x-aliyun", Reason: "The source does not support it."}))

	// A competing proposal on the value the cross-validated
	// demo-qingjiao-2 changes: publishing it returns qingjiao-2 to review.
	qj, err := h.Proposal(ctx, "demo-qingjiao-2")
	if err != nil {
		t.Fatal(err)
	}
	open("x-qingjiao", "qingjiao", demo.CritOnboarding, qj.Scores[demo.CritOnboarding].To%10+1)
	approveAll("x-qingjiao", "reviewer1", "x-qingjiao-approve1")
	approveAll("x-qingjiao", "reviewer2", "x-qingjiao-approve2")

	// New weights, reviewed: two criteria swap theirs in a methodology
	// proposal that edition 2 publishes.
	r, err := h.Ranking(ctx, slug)
	if err != nil {
		t.Fatal(err)
	}
	m := r.Methodology()
	m.Criteria = slices.Clone(m.Criteria)
	on := slices.IndexFunc(m.Criteria, func(c events.Criterion) bool { return c.Weight != m.Criteria[0].Weight })
	m.Criteria[0].Weight, m.Criteria[on].Weight = m.Criteria[on].Weight, m.Criteria[0].Weight
	do(t, "weights")(h.OpenProposal(ctx, editor, domain.OpenProposal{CommandID: "x-weights-open", ID: "x-weights", Ranking: slug,
		Methodology: true, Title: "Swap two weights"}))
	do(t, "weights")(h.ProposeMethodology(ctx, editor, domain.ProposeMethodology{CommandID: "x-weights-m", Proposal: "x-weights",
		Methodology: m, Rationale: events.Text{En: "Elasticity matters more to the readers than onboarding."}}))
	do(t, "weights")(h.Submit(ctx, editor, domain.Submit{CommandID: "x-weights-submit", Proposal: "x-weights"}))
	approveAll("x-weights", "reviewer1", "x-weights-approve1")
	approveAll("x-weights", "reviewer2", "x-weights-approve2")

	// Edition 2, published as the desk does: preview, the read model's
	// audit head and cross-validated candidates.
	d.catchUp(t)
	chosen := []string{hw, "x-ppio", "x-qingjiao", "x-weights"}
	pv, _, err := h.PreviewEdition(ctx, slug, chosen)
	if err != nil {
		t.Fatal(err)
	}

	// The workflow around review: reviewers requested, a comment thread
	// resolved, a declared conflict, a scheduled edition canceled, an
	// inbox read.
	do(t, "request")(h.RequestReviewers(ctx, editor, domain.RequestReviewers{CommandID: "x-request", Proposal: "demo-qingjiao-2",
		Reviewers: []string{"reviewer1", "reviewer2"}}))
	do(t, "comment")(h.AddComment(ctx, reviewer("reviewer1"), domain.AddComment{CommandID: "x-comment", Proposal: "x-ppio",
		On: "evidence:e1", Body: "Is this the current price list?"}))
	do(t, "reply")(h.AddComment(ctx, editor, domain.AddComment{CommandID: "x-reply", Proposal: "x-ppio", ReplyTo: "c1", Body: "Yes, checked today."}))
	do(t, "resolve")(h.ResolveComment(ctx, reviewer("reviewer1"), domain.ResolveComment{CommandID: "x-resolve", Proposal: "x-ppio", Comment: "c1"}))
	do(t, "conflict")(h.DeclareConflict(ctx, reviewer("reviewer3"), domain.DeclareConflict{CommandID: "x-conflict", Ranking: slug,
		Entry: "aliyun", Reason: "Former employee."}))
	if pv, _, err = h.PreviewEdition(ctx, slug, chosen); err != nil { // the declaration changed the ranking
		t.Fatal(err)
	}
	do(t, "schedule")(h.ScheduleEdition(ctx, publisher, domain.ScheduleEdition{CommandID: "x-schedule", Ranking: slug,
		Schedule: "x-schedule-1", Proposals: chosen, PreviewHash: pv.Hash, At: time.Now().Add(24 * time.Hour)}))
	do(t, "cancel")(h.CancelSchedule(ctx, publisher, domain.CancelSchedule{CommandID: "x-cancel", Ranking: slug,
		Schedule: "x-schedule-1", Reason: "Publishing now instead."}))
	do(t, "inbox")(h.MarkInboxRead(ctx, editor, domain.MarkInboxRead{CommandID: "x-inbox", User: "editor", UpTo: 5}))
	if pv, _, err = h.PreviewEdition(ctx, slug, chosen); err != nil {
		t.Fatal(err)
	}
	head, seq, _ := d.ps.AuditHead(ctx)
	candidates, err := d.ps.CrossValidated(ctx, slug)
	if err != nil {
		t.Fatal(err)
	}
	do(t, "publish")(h.Publish(ctx, publisher, domain.PublishEdition{CommandID: "x-edition-2", Ranking: slug, Proposals: chosen,
		PreviewHash: pv.Hash, AuditHead: head, AuditSeq: seq, Note: "Second edition", Candidates: candidates}))
	if qj, _ := h.Proposal(ctx, "demo-qingjiao-2"); qj.Status != domain.StatusInReview {
		t.Fatalf("demo-qingjiao-2 is %s after edition 2, want it returned to review", qj.Status)
	}

	// Webhook deliveries of edition 2 (written by the notifier, not a command).
	now := time.Now()
	for _, data := range []any{
		&events.WebhookFailed{URL: "https://hooks.example.com/x", Ranking: slug, Edition: 2, Attempt: 1, Error: "HTTP 502"},
		&events.WebhookDelivered{URL: "https://hooks.example.com/x", Ranking: slug, Edition: 2, Status: 200, Attempts: 2},
	} {
		ev, err := events.New(events.NewID(now), now, "system", slug, data)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := d.env.Store.Append(ctx, nil, ev); err != nil {
			t.Fatal(err)
		}
	}
	d.catchUp(t)
}

// mustCount fails unless the query counts want rows: it proves the history
// holds what a test relies on.
func mustCount(t *testing.T, ps *projections.Store, want int, q string, args ...any) {
	t.Helper()
	var got int
	if err := ps.DB().QueryRow(q, args...).Scan(&got); err != nil || got != want {
		t.Errorf("%s = %d (err %v), want %d", q, got, err, want)
	}
}
