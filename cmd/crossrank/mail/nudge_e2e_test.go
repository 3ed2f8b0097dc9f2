package mail

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/crossrank/crossrank/cmd/crossrank/scheduler"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// TestMailNudgeArrivesOnce: an editor asks reviewer2 (address confirmed)
// for a review of a proposal in review, due in a few seconds; the request is mailed at once; the
// due date passes unanswered, the nudger (as `serve` runs it) records the
// nudge once, and reviewer2 is mailed about the overdue review once, with a
// link to the proposal — the inbox item, mailed at once by default.
func TestMailNudgeArrivesOnce(t *testing.T) {
	t.Parallel()
	e := start(t, 0, time.Now)
	if err := e.svc.SetConfirmed(e.ctx, domain.System(), "reviewer2", "r2@example.org"); err != nil {
		t.Fatal(err)
	}
	nc, err := e.js.Server.Connect("nudger")
	if err != nil {
		t.Fatal(err)
	}
	n, err := scheduler.NewNudger(nc, scheduler.NudgeConfig{Commands: e.cmd})
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { _ = n.Run(ctx) })
	t.Cleanup(func() { stop(); wg.Wait(); nc.Close() })

	const p = "demo-huawei-cloud-2" // the demo's proposal in review, which reviewer2 has not voted on
	due := time.Now().Add(3 * time.Second)
	if _, err := e.cmd.RequestReviewers(e.ctx, e.actor("editor"), domain.RequestReviewers{
		CommandID: events.NewID(time.Now()), Proposal: p, Reviewers: []string{"reviewer2"}, Due: due}); err != nil {
		t.Fatal(err)
	}
	e.relay.await(t, "r2@example.org", p) // the request, at once
	m := e.relay.await(t, "r2@example.org", "overdue")
	text, _ := parts(t, m)
	contains(t, "the nudge", text, publicURL+"/desk/proposals/"+p)
	if time.Now().Before(due.Truncate(time.Second)) { // stored to the second
		t.Errorf("nudged before the due date")
	}

	// Once: one nudge in the log, one overdue mail once it is sent.
	evs, err := e.js.Store.Load(e.ctx, domain.ProposalID(p), 0)
	if err != nil {
		t.Fatal(err)
	}
	nudges := 0
	for _, ev := range evs {
		if ev.Type == events.TypeReviewNudged {
			nudges++
		}
	}
	if nudges != 1 {
		t.Errorf("%d nudges in the log, want 1", nudges)
	}
	e.sentDeliveries("reviewer2", 2)
	overdue := 0
	for _, r := range e.relay.all() {
		if r.To == "r2@example.org" && strings.Contains(decodedSubject(r), "overdue") {
			overdue++
		}
	}
	if overdue != 1 {
		t.Errorf("%d overdue mails, want 1", overdue)
	}
}
