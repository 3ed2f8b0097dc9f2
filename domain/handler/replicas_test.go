package handler_test

import (
	"errors"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events"
)

// TestReplicaDecidesOnStoredState: two handlers on one store, as two
// replicas behind a load balancer. A refusal or a no-op decided on a state
// one of them cached before the other wrote is decided again on the stored
// state: the editor's next step never fails for a step taken elsewhere.
func TestReplicaDecidesOnStoredState(t *testing.T) {
	ctx := testCtx(t)
	st := newStore(t)
	clock := func() time.Time { return t0 }
	a, b := handler.New(st, clock), handler.New(st, clock)
	desk(t, ctx, a, st)
	alice := actor("alice")
	must(t)(a.OpenProposal(ctx, alice, domain.OpenProposal{CommandID: newCommandID(), ID: "p2", Ranking: rk, Entry: "nova", Title: "Rescore Nova"}))

	// Replica b adds the evidence; replica a, which cached p2 when opening
	// it, cites it in a score change.
	must(t)(b.AddEvidence(ctx, alice, domain.AddEvidence{CommandID: newCommandID(), Proposal: "p2", Claim: events.Text{En: "new price list"},
		SourceURL: "https://nova.example/prices", Excerpt: "H100 from 1.99", ObservedOn: "2026-03-01"}))
	if _, err := a.ProposeScore(ctx, alice, domain.ProposeScore{CommandID: newCommandID(), Proposal: "p2", Criterion: "price", To: 8,
		Rationale: events.Text{En: "cheaper now"}, Evidence: []string{"e1"}}); err != nil {
		t.Fatalf("score change on replica a citing evidence added on replica b: %v", err)
	}

	// Replica b submits; replica a, which cached p2 in draft, withdraws it:
	// the withdrawal applies to the proposal as stored (in review).
	must(t)(b.Submit(ctx, alice, domain.Submit{CommandID: newCommandID(), Proposal: "p2"}))
	res, err := a.Withdraw(ctx, alice, domain.Withdraw{CommandID: newCommandID(), Proposal: "p2", Reason: "superseded"})
	if err != nil || len(res.EventIDs) != 1 {
		t.Fatalf("withdraw on replica a after a submit on replica b: %+v, %v", res, err)
	}
	p, err := b.Proposal(ctx, "p2")
	if err != nil || p.Status != domain.StatusWithdrawn {
		t.Fatalf("p2 after the withdrawal: %+v, %v; want withdrawn", p, err)
	}

	// A refusal that holds on the stored state is still a refusal.
	_, err = a.ProposeScore(ctx, alice, domain.ProposeScore{CommandID: newCommandID(), Proposal: "p2", Criterion: "price", To: 9,
		Rationale: events.Text{En: "again"}, Evidence: []string{"e1"}})
	if err == nil || errors.Is(err, events.ErrConflict) {
		t.Fatalf("score change on a withdrawn proposal: %v; want the domain's refusal", err)
	}
}
