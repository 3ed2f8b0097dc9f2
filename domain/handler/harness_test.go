package handler_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/events/jetstream"
	"github.com/crossrank/crossrank/events/jetstream/jstest"
)

// The handler tests run against the real event store: an embedded
// nats-server with JetStream in a temporary directory, as in production.

func newStore(t testing.TB) *jetstream.Store {
	t.Helper()
	srv, err := jetstream.StartEmbedded(jetstream.EmbeddedOptions{Dir: t.TempDir()})
	if err != nil {
		t.Fatalf("StartEmbedded: %v", err)
	}
	t.Cleanup(srv.Shutdown)
	nc, err := srv.Connect(t.Name())
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	t.Cleanup(nc.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	st, err := jetstream.Open(ctx, nc, jetstream.Config{})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	return st
}

func testCtx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// newCommandID returns a fresh command id.
func newCommandID() string { return events.NewID(time.Now()) }

// must fails the test on a command's error: must(t)(h.Submit(…)).
func must(t testing.TB) func(handler.Result, error) handler.Result {
	return func(r handler.Result, err error) handler.Result {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
}

// desk is a ranking with nova proposed as a new entry and submitted: p1
// (alice) scores price 9 citing e1 and sets root [yes] citing e2.
func desk(t testing.TB, ctx context.Context, h *handler.Handler, st events.Store) {
	t.Helper()
	jstest.DefineRanking(t, st, rankingDefinition(), nil)
	r := must(t)(h.OpenProposal(ctx, actor("alice"), domain.OpenProposal{CommandID: newCommandID(), ID: "p1", Ranking: rk, Entry: "nova",
		Title: "Add Nova", NewEntry: newEntry()}))
	if len(r.EventIDs) != 2 {
		t.Fatalf("opening a new-entry proposal appended %d events, want EntryCreated and ProposalOpened", len(r.EventIDs))
	}
	for _, claim := range []string{"price list", "root access"} {
		must(t)(h.AddEvidence(ctx, actor("alice"), domain.AddEvidence{CommandID: newCommandID(), Proposal: "p1", Claim: events.Text{En: claim},
			SourceURL: "https://nova.example/" + claim[:4], Excerpt: claim, ObservedOn: "2026-02-20"}))
	}
	must(t)(h.ProposeScore(ctx, actor("alice"), domain.ProposeScore{CommandID: newCommandID(), Proposal: "p1", Criterion: "price", To: 9,
		Rationale: events.Text{En: "cheapest H100 hour"}, Evidence: []string{"e1"}}))
	must(t)(h.ProposeAttribute(ctx, actor("alice"), domain.ProposeAttribute{CommandID: newCommandID(), Proposal: "p1", Attribute: "root",
		To: []string{"yes"}, Rationale: events.Text{En: "documented"}, Evidence: []string{"e2"}}))
	must(t)(h.Submit(ctx, actor("alice"), domain.Submit{CommandID: newCommandID(), Proposal: "p1"}))
}

// approveAll is an approving vote on p verifying both evidence items, with
// a fresh command id.
func approveAll(p string) domain.CastVote {
	return domain.CastVote{CommandID: newCommandID(), Proposal: p, Revision: 1, Verdict: approve, VerifiedEvidence: []string{"e1", "e2"}}
}

// sameState compares what two handlers hold for the ranking, its edition and
// a proposal.
func sameState(t *testing.T, ctx context.Context, a, b *handler.Handler, proposal string) {
	t.Helper()
	pa, err := a.Proposal(ctx, proposal)
	if err != nil {
		t.Fatal(err)
	}
	pb, err := b.Proposal(ctx, proposal)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(pa, pb) {
		t.Errorf("proposal %s differs between handlers:\n%+v\n%+v", proposal, pa, pb)
	}
	ea, _ := a.Edition(ctx, rk)
	eb, _ := b.Edition(ctx, rk)
	if !reflect.DeepEqual(ea, eb) {
		t.Errorf("edition differs between handlers:\n%+v\n%+v", ea, eb)
	}
	ra, _ := a.Ranking(ctx, rk)
	rb, _ := b.Ranking(ctx, rk)
	if !reflect.DeepEqual(ra, rb) {
		t.Errorf("ranking differs between handlers:\n%+v\n%+v", ra, rb)
	}
}

// storedTypes lists the event types stored for an aggregate.
func storedTypes(t testing.TB, ctx context.Context, st events.Store, agg events.Aggregate) []string {
	t.Helper()
	evs, err := st.Load(ctx, agg, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(evs))
	for i, e := range evs {
		out[i] = e.Name()
	}
	return out
}

// crossValidations counts the cross-validations stored for proposal id,
// whether carried by a vote or a dismissed veto or, as in older histories,
// a ProposalCrossValidated of their own.
func crossValidations(t *testing.T, ctx context.Context, st events.Store, id string) int {
	t.Helper()
	evs, err := st.Load(ctx, domain.ProposalID(id), 0)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range evs {
		switch d := e.Data.(type) {
		case *events.VoteCast:
			n += boolInt(d.CrossValidated != nil)
		case *events.VetoDismissed:
			n += boolInt(d.CrossValidated != nil)
		case *events.ProposalCrossValidated:
			n++
		}
	}
	return n
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func count(xs []string, x string) int {
	n := 0
	for _, y := range xs {
		if y == x {
			n++
		}
	}
	return n
}
