package handler_test

import (
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/events/jetstream/jstest"
)

func TestHandlerFullFlow(t *testing.T) {
	ctx := testCtx(t)
	st := newStore(t)
	h := handler.New(st, func() time.Time { return t0 })
	desk(t, ctx, h, st)

	r1 := must(t)(h.CastVote(ctx, actor("rita"), domain.CastVote{CommandID: newCommandID(), Proposal: "p1", Revision: 1, Verdict: approve, VerifiedEvidence: []string{"e1"}}))
	r2 := must(t)(h.CastVote(ctx, actor("ravi"), domain.CastVote{CommandID: newCommandID(), Proposal: "p1", Revision: 1, Verdict: approve, VerifiedEvidence: []string{"e2"}}))
	if len(r1.EventIDs) != 1 || len(r2.EventIDs) != 1 || r2.Sequence != r1.Sequence+1 {
		t.Fatalf("votes appended %v then %v, want one event each, the second carrying the cross-validation", r1, r2)
	}
	p, err := h.Proposal(ctx, "p1")
	if err != nil {
		t.Fatal(err)
	}
	if p.Status != domain.StatusCrossValidated || p.CrossValidatedRevision != 1 {
		t.Fatalf("p1 is %s at revision %d, want cross_validated at 1", p.Status, p.CrossValidatedRevision)
	}

	pv, r, err := h.PreviewEdition(ctx, rk, []string{"p1"})
	if err != nil {
		t.Fatal(err)
	}
	if pv.Number != 1 || len(pv.NewEntries) != 1 || pv.NewEntries[0].Slug != "nova" || len(pv.Changes) != 2 || r.Slug != rk {
		t.Fatalf("preview = %+v", pv)
	}
	if _, err := h.Publish(ctx, actor("pat"), domain.PublishEdition{CommandID: newCommandID(), Ranking: rk, Proposals: []string{"p1"}, PreviewHash: "0"}); !errors.Is(err, domain.ErrPreviewChanged) {
		t.Fatalf("publish with a wrong preview hash: %v, want ErrPreviewChanged", err)
	}
	pub := must(t)(h.Publish(ctx, actor("pat"), domain.PublishEdition{CommandID: newCommandID(), Ranking: rk, Proposals: []string{"p1"},
		PreviewHash: pv.Hash, Note: "first edition"}))
	if len(pub.EventIDs) != 2 {
		t.Fatalf("publish appended %d events, want EditionPublished and ProposalPublished", len(pub.EventIDs))
	}

	ed, err := h.Edition(ctx, rk)
	if err != nil {
		t.Fatal(err)
	}
	want := &domain.PublishedEntry{Slug: "nova", Name: events.Text{Zh: "新云", En: "Nova"}, Category: "market",
		Website: "https://nova.example", Scores: map[string]int{"price": 9}, Attributes: map[string][]string{"root": {"yes"}}, Since: 1}
	if got := ed.Entry("nova"); !reflect.DeepEqual(got, want) {
		t.Errorf("published nova = %+v, want %+v", got, want)
	}
	rank, err := h.Ranking(ctx, rk)
	if err != nil {
		t.Fatal(err)
	}
	hash := domain.BuildSnapshot(rank, ed).Hash()
	if ed.Number != 1 || ed.Last.SnapshotHash != hash || pv.SnapshotHash != hash || ed.Seq != pub.Sequence-1 {
		t.Errorf("edition %d, snapshot hash %s, preview %s, computed %s", ed.Number, ed.Last.SnapshotHash, pv.SnapshotHash, hash)
	}
	if p, _ := h.Proposal(ctx, "p1"); p.Status != domain.StatusPublished || p.Edition != 1 {
		t.Errorf("p1 is %s in edition %d, want published in 1", p.Status, p.Edition)
	}

	// A second handler reading everything from the store sees exactly the
	// states the first one built by applying its own decisions.
	fresh := handler.New(st, nil)
	sameState(t, ctx, h, fresh, "p1")
}

func TestHandlerIdempotentRetry(t *testing.T) {
	ctx := testCtx(t)
	st := newStore(t)
	h := handler.New(st, nil)
	desk(t, ctx, h, st)
	must(t)(h.CastVote(ctx, actor("rita"), approveAll("p1")))

	vote := approveAll("p1")
	first := must(t)(h.CastVote(ctx, actor("ravi"), vote))
	again := must(t)(h.CastVote(ctx, actor("ravi"), vote))
	if first.Replayed || !again.Replayed {
		t.Errorf("Replayed = %v then %v, want false then true", first.Replayed, again.Replayed)
	}
	if again.Sequence != first.Sequence || !reflect.DeepEqual(again.EventIDs, first.EventIDs) {
		t.Errorf("retry = %+v, want the first result %+v (its last sequence, for read-your-writes)", again, first)
	}
	// Another replica, with nothing cached, recognises the retry too.
	other := must(t)(handler.New(st, nil).CastVote(ctx, actor("ravi"), vote))
	if !other.Replayed || other.Sequence != first.Sequence {
		t.Errorf("retry on another handler = %+v, want replayed at %d", other, first.Sequence)
	}
	types := storedTypes(t, ctx, st, domain.ProposalID("p1"))
	if n, m := count(types, "vote_cast"), crossValidations(t, ctx, st, "p1"); n != 2 || m != 1 || len(types) != 8 {
		t.Errorf("stored %d votes and %d cross-validations, want 2 and 1 in 8 events: %v", n, m, types)
	}

	// A retried command that wrote two aggregates.
	open := domain.OpenProposal{CommandID: newCommandID(), ID: "p2", Ranking: rk, Entry: "orca", Title: "Add Orca",
		NewEntry: &domain.NewEntry{Name: events.Text{En: "Orca"}, Category: "cloud"}}
	first = must(t)(h.OpenProposal(ctx, actor("bob"), open))
	again = must(t)(h.OpenProposal(ctx, actor("bob"), open))
	if !again.Replayed || again.Sequence != first.Sequence {
		t.Errorf("retried OpenProposal = %+v, want replayed %+v", again, first)
	}
	if got := storedTypes(t, ctx, st, domain.EntryID(rk, "orca")); len(got) != 1 {
		t.Errorf("entry orca has %d events, want 1", len(got))
	}
}

// TestHandlerRetryOnStaleReplica: a command runs on replica B, then its
// retry reaches replica A, whose cache predates it. A must report the retry
// and keep a state that matches the store (no event skipped).
func TestHandlerRetryOnStaleReplica(t *testing.T) {
	ctx := testCtx(t)
	st := newStore(t)
	a, b := handler.New(st, nil), handler.New(st, nil)
	desk(t, ctx, a, st)
	if _, err := a.Proposal(ctx, "p1"); err != nil { // a caches p1
		t.Fatal(err)
	}
	must(t)(b.CastVote(ctx, actor("rita"), approveAll("p1")))
	vote := approveAll("p1")
	first := must(t)(b.CastVote(ctx, actor("ravi"), vote))
	retry, err := a.CastVote(ctx, actor("ravi"), vote)
	if err != nil {
		t.Fatal(err)
	}
	if !retry.Replayed || retry.Sequence != first.Sequence {
		t.Errorf("retry on the stale replica = %+v, want replayed at %d", retry, first.Sequence)
	}
	sameState(t, ctx, a, handler.New(st, nil), "p1")
	if p, _ := a.Proposal(ctx, "p1"); len(p.Votes) != 2 || p.Status != domain.StatusCrossValidated {
		t.Errorf("replica A holds %d votes, status %s; want 2 and cross_validated", len(p.Votes), p.Status)
	}
}

// TestHandlerStaleCache: handler A caches a proposal, handler B (another
// replica) writes to it; A's next command is decided on the current state.
func TestHandlerStaleCache(t *testing.T) {
	ctx := testCtx(t)
	st := newStore(t)
	a, b := handler.New(st, nil), handler.New(st, nil)
	desk(t, ctx, a, st)
	must(t)(a.CastVote(ctx, actor("rosa"), domain.CastVote{CommandID: newCommandID(), Proposal: "p1", Revision: 1, Verdict: reject, Comment: "unclear"}))

	// B lifts rosa's veto and adds an approval; A has seen neither.
	must(t)(b.CastVote(ctx, actor("rosa"), approveAll("p1")))
	r := must(t)(a.CastVote(ctx, actor("rita"), approveAll("p1")))
	if len(r.EventIDs) != 1 || crossValidations(t, ctx, st, "p1") != 1 {
		t.Fatalf("A's vote appended %d events and %d cross-validations, want the vote carrying one (decided on B's write)",
			len(r.EventIDs), crossValidations(t, ctx, st, "p1"))
	}
	p, err := a.Proposal(ctx, "p1")
	if err != nil {
		t.Fatal(err)
	}
	if p.Status != domain.StatusCrossValidated || len(p.Votes) != 2 {
		t.Errorf("A sees %s with %d votes, want cross_validated with 2", p.Status, len(p.Votes))
	}
	// B is now the stale one: its command must be refused on A's write.
	if _, err := b.CastVote(ctx, actor("ravi"), domain.CastVote{CommandID: newCommandID(), Proposal: "p1", Revision: 2, Verdict: approve}); !errors.Is(err, domain.ErrStaleRevision) {
		t.Errorf("B votes on revision 2: %v, want ErrStaleRevision", err)
	}
	must(t)(a.Revise(ctx, actor("alice"), domain.Revise{CommandID: newCommandID(), Proposal: "p1", Note: "clarify"}))
	if _, err := b.CastVote(ctx, actor("ravi"), approveAll("p1")); !errors.Is(err, domain.ErrNotInReview) {
		t.Errorf("B votes after A's revision: %v, want ErrNotInReview", err)
	}
	sameState(t, ctx, a, b, "p1")
}

// TestHandlerConcurrentVotes: 20 reviewers vote at once through two handlers
// sharing one store (two replicas). Conflicts are retried inside the
// handler: every vote succeeds, is stored once, and the proposal is
// cross-validated exactly once.
func TestHandlerConcurrentVotes(t *testing.T) {
	ctx := testCtx(t)
	st := newStore(t)
	hs := []*handler.Handler{handler.New(st, nil), handler.New(st, nil)}
	desk(t, ctx, hs[0], st)
	for _, h := range hs { // both replicas cache p1 before the race
		if _, err := h.Proposal(ctx, "p1"); err != nil {
			t.Fatal(err)
		}
	}
	const n = 20
	start := make(chan struct{})
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			<-start
			a := domain.Actor{Name: fmt.Sprintf("reviewer%02d", i), Roles: []string{domain.RoleReviewer}}
			_, errs[i] = hs[i%2].CastVote(ctx, a, approveAll("p1"))
		})
	}
	close(start)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("reviewer%02d: %v", i, err)
		}
	}
	evs, err := st.Load(ctx, domain.ProposalID("p1"), 0)
	if err != nil {
		t.Fatal(err)
	}
	voters := map[string]int{}
	validations := crossValidations(t, ctx, st, "p1")
	for _, e := range evs {
		if _, ok := e.Data.(*events.VoteCast); ok {
			voters[e.Actor]++
		}
	}
	if len(voters) != n || validations != 1 {
		t.Errorf("stored votes of %d reviewers and %d cross-validations, want %d and 1", len(voters), validations, n)
	}
	for v, c := range voters {
		if c != 1 {
			t.Errorf("%s's vote stored %d times", v, c)
		}
	}
	for _, h := range hs {
		p, err := h.Proposal(ctx, "p1")
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Votes) != n || p.Status != domain.StatusCrossValidated {
			t.Errorf("a handler sees %d votes and %s, want %d and cross_validated", len(p.Votes), p.Status, n)
		}
	}
	sameState(t, ctx, hs[0], hs[1], "p1")
}

// TestHandlerPublishWhileVoting: a publish that returns other proposals to
// review locks the edition and those proposals, while votes on them read
// the edition; neither may wait for the other forever.
func TestHandlerPublishWhileVoting(t *testing.T) {
	ctx := testCtx(t)
	st := newStore(t)
	h := handler.New(st, nil)
	desk(t, ctx, h, st)
	must(t)(h.CastVote(ctx, actor("rita"), approveAll("p1")))
	must(t)(h.CastVote(ctx, actor("ravi"), approveAll("p1")))
	must(t)(h.OpenProposal(ctx, actor("bob"), domain.OpenProposal{CommandID: newCommandID(), ID: "p2", Ranking: rk, Entry: "acme", Title: "Acme",
		NewEntry: &domain.NewEntry{Name: events.Text{En: "Acme"}, Category: "cloud"}}))
	must(t)(h.AddEvidence(ctx, actor("bob"), domain.AddEvidence{CommandID: newCommandID(), Proposal: "p2", Claim: events.Text{En: "c"}, SourceName: "report", Excerpt: "x", ObservedOn: "2026-01-01"}))
	must(t)(h.ProposeScore(ctx, actor("bob"), domain.ProposeScore{CommandID: newCommandID(), Proposal: "p2", Criterion: "perf", To: 4, Rationale: events.Text{En: "r"}, Evidence: []string{"e1"}}))
	must(t)(h.Submit(ctx, actor("bob"), domain.Submit{CommandID: newCommandID(), Proposal: "p2"}))

	done := make(chan struct{})
	go func() {
		defer close(done)
		var wg sync.WaitGroup
		wg.Go(func() {
			for range 30 { // refused (wrong preview), but takes the edition's and p2's locks
				_, _ = h.Publish(ctx, actor("pat"), domain.PublishEdition{CommandID: newCommandID(), Ranking: rk, Proposals: []string{"p1"}, PreviewHash: "0", Candidates: []string{"p2"}})
			}
		})
		wg.Go(func() {
			for i := range 30 {
				v := domain.CastVote{CommandID: newCommandID(), Proposal: "p2", Revision: 1, Verdict: approve}
				if i%2 == 1 {
					v.Verdict, v.Comment = reject, "unsure"
				}
				if _, err := h.CastVote(ctx, actor("rosa"), v); err != nil {
					t.Errorf("vote %d: %v", i, err)
				}
			}
		})
		wg.Wait()
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("publish and vote deadlocked")
	}
}

func TestHandlerErrors(t *testing.T) {
	ctx := testCtx(t)
	h := handler.New(newStore(t), nil)
	tests := []struct {
		name string
		run  func() (handler.Result, error)
		err  error
	}{
		{"unknown proposal", func() (handler.Result, error) {
			return h.Submit(ctx, actor("alice"), domain.Submit{CommandID: newCommandID(), Proposal: "p9"})
		}, domain.ErrProposalMissing},
		{"proposal id not an id", func() (handler.Result, error) {
			return h.Submit(ctx, actor("alice"), domain.Submit{CommandID: newCommandID(), Proposal: "P 9"})
		}, domain.ErrProposalMissing},
		{"ranking slug invalid", func() (handler.Result, error) {
			return h.OpenProposal(ctx, actor("alice"), domain.OpenProposal{CommandID: newCommandID(), ID: "m1", Ranking: "GPU",
				Methodology: true, NewRanking: true, Title: "t"})
		}, domain.ErrInvalid},
		{"proposal for an unknown ranking", func() (handler.Result, error) {
			return h.OpenProposal(ctx, actor("alice"), domain.OpenProposal{CommandID: newCommandID(), ID: "p1", Ranking: "cpu", Entry: "acme", Title: "t"})
		}, domain.ErrRankingMissing},
		{"publish nothing", func() (handler.Result, error) {
			return h.Publish(ctx, actor("pat"), domain.PublishEdition{CommandID: newCommandID(), Ranking: rk})
		}, domain.ErrNothingToPublish},
		{"publish a proposal twice", func() (handler.Result, error) {
			return h.Publish(ctx, actor("pat"), domain.PublishEdition{CommandID: newCommandID(), Ranking: rk, Proposals: []string{"p1", "p1"}})
		}, domain.ErrInvalid},
	}
	for _, tt := range tests {
		if _, err := tt.run(); !errors.Is(err, tt.err) {
			t.Errorf("%s: %v, want %v", tt.name, err, tt.err)
		}
	}
	if _, err := h.Ranking(ctx, rk); !errors.Is(err, domain.ErrRankingMissing) {
		t.Errorf("Ranking of an undefined ranking: %v", err)
	}
	if ed, err := h.Edition(ctx, rk); err != nil || ed.Number != 0 || len(ed.Entries) != 0 {
		t.Errorf("Edition before the first = %+v, %v; want number 0, no entries", ed, err)
	}
}

// TestHandlerRecordsAuthVia: the handler stamps how the actor signed in on
// every event a command appends, and leaves it off when the actor carries
// none.
func TestHandlerRecordsAuthVia(t *testing.T) {
	ctx := testCtx(t)
	st := newStore(t)
	h := handler.New(st, nil)
	tok := events.Via{Method: events.ViaToken, TokenID: "0195eb2c-1a00-7000-8000-0000000000aa", TokenName: "ci-bot"}
	jstest.DefineRanking(t, st, rankingDefinition(), nil)
	alice := actor("alice")
	alice.Via = events.Via{Method: events.ViaSession}
	// Opening a new entry appends two events: both carry it.
	must(t)(h.OpenProposal(ctx, alice, domain.OpenProposal{CommandID: newCommandID(), ID: "p1", Ranking: rk, Entry: "nova",
		Title: "Add Nova", NewEntry: newEntry()}))
	alice.Via = tok
	must(t)(h.AddEvidence(ctx, alice, domain.AddEvidence{CommandID: newCommandID(), Proposal: "p1", Claim: events.Text{En: "price list"},
		SourceURL: "https://nova.example/p", Excerpt: "x", ObservedOn: "2026-02-20"}))
	must(t)(h.AddEvidence(ctx, actor("alice"), domain.AddEvidence{CommandID: newCommandID(), Proposal: "p1", Claim: events.Text{En: "root"},
		SourceURL: "https://nova.example/r", Excerpt: "x", ObservedOn: "2026-02-20"}))
	var got []string
	if err := st.Replay(ctx, 1, func(e events.Event) error {
		got = append(got, e.Name()+" "+e.AuthVia)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	want := []string{"defined ", "created session", "opened session", "evidence_added " + tok.String(), "evidence_added "}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("events and their authvia:\n got %q\nwant %q", got, want)
	}
}
