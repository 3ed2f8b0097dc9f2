package domain_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// crossValidatedOn is a proposal by author on entry changing one score from
// → to, approved by rita and ravi.
func crossValidatedOn(id, author, entry, crit string, from *int, to int) []given {
	return []given{
		opened(id, author, entry),
		evidence(id, author, "e1", 1),
		score(id, author, 1, crit, from, to, "e1"),
		submitted(id, author, 1),
		voted(id, "rita", 1, approve, "e1"),
		voted(id, "ravi", 1, approve, "e1"),
		validated(id, 1, "ravi", "rita"),
	}
}

// novaValidated registers nova through p9 (a new-entry proposal scoring
// price 9) and cross-validates it.
func novaValidated() []given {
	return cat([]given{
		{"bob", domain.EntryID(rk, "nova"), &events.EntryCreated{Ranking: rk, Slug: "nova",
			Name: events.Text{Zh: "新云", En: "Nova"}, Category: "market", Website: "https://nova.example", Proposal: "p9"}},
		{"bob", domain.ProposalID("p9"), &events.ProposalOpened{Ranking: rk, Entry: "nova", NewEntry: true, Title: "Add Nova"}},
	}, crossValidatedOn("p9", "bob", "nova", "price", nil, 9)[1:])
}

// publishWith previews the chosen proposals and publishes them with the
// preview's hash, as a publisher would after reading the preview.
func publishWith(who string, chosen []string, others ...string) func(w *world) ([]domain.Change, error) {
	return func(w *world) ([]domain.Change, error) {
		ps, os := w.proposals(chosen), w.proposals(others)
		pv, err := domain.Preview(w.ranking, w.edition, ps, w.entries)
		if err != nil {
			return nil, err
		}
		return domain.DecidePublish(w.ranking, w.edition, ps, w.entries, os, actor(who),
			domain.PublishEdition{Ranking: rk, Proposals: chosen, PreviewHash: pv.Hash})
	}
}

func (w *world) proposals(ids []string) []*domain.Proposal {
	out := make([]*domain.Proposal, len(ids))
	for i, id := range ids {
		out[i] = w.prop(id)
	}
	return out
}

func TestDecidePublishRefusals(t *testing.T) {
	p1 := p1Validated()
	runDecide(t, []decideTest{
		{name: "an editor cannot publish", given: p1, when: publishWith("alice", []string{"p1"}), err: domain.ErrRoleRequired},
		{name: "a reviewer cannot publish", given: p1, when: publishWith("rita", []string{"p1"}), err: domain.ErrRoleRequired},
		{name: "a user without roles cannot publish", given: p1, when: publishWith("nobody", []string{"p1"}), err: domain.ErrRoleRequired},
		{name: "a publisher who wrote a proposal cannot publish it",
			given: cat(defined(), crossValidatedOn("p1", "paula", "acme", "price", ptr(5), 7)),
			when:  publishWith("paula", []string{"p1"}), err: domain.ErrSelfPublish},
		{name: "a publisher who revised a proposal cannot publish it",
			given: cat(p1InReview(), []given{revised("p1", "paula", 2), submitted("p1", "alice", 2),
				voted("p1", "rita", 2, approve, "e1", "e2"), voted("p1", "ravi", 2, approve, "e1", "e2"), validated("p1", 2, "ravi", "rita")}),
			when: publishWith("paula", []string{"p1"}), err: domain.ErrSelfPublish},
		{name: "nothing chosen", given: p1, when: publishWith("pat", nil), err: domain.ErrNothingToPublish},
		{name: "a proposal in review", given: p1InReview(), when: publishWith("pat", []string{"p1"}), err: domain.ErrNotCrossValidated},
		{name: "a published proposal",
			given: cat(p1, []given{closedBy("p1", "pat", &events.ProposalPublished{Edition: 2, Revision: 1})}),
			when:  publishWith("pat", []string{"p1"}), err: domain.ErrNotCrossValidated},
		{name: "a proposal that does not exist", given: p1, when: publishWith("pat", []string{"p1", "p7"}), err: domain.ErrProposalMissing},
		{name: "two proposals changing the same value",
			given: cat(p1, crossValidatedOn("p3", "bob", "acme", "price", ptr(5), 4)),
			when:  publishWith("pat", []string{"p1", "p3"}), err: domain.ErrDuplicateTarget},
		{name: "a cross-validated proposal whose baseline was published over",
			given: cat(p1, []given{edition2()}), when: publishWith("pat", []string{"p1"}), err: domain.ErrStaleBaseline},
		{name: "a follow-up proposal for a new entry nobody publishes",
			given: cat(defined(), novaValidated(), crossValidatedOn("p2", "alice", "nova", "perf", nil, 8)),
			when:  publishWith("pat", []string{"p2"}), err: domain.ErrEntryMissing},
		{name: "unknown ranking",
			when: publishWith("pat", []string{"p1"}), err: domain.ErrRankingMissing},
	})
}

func TestDecidePublishPreviewChanged(t *testing.T) {
	tests := []struct {
		name   string
		change func(w *world)
	}{
		{"a chosen proposal revised and cross-validated again", func(w *world) {
			for _, g := range []given{revised("p1", "alice", 2), submitted("p1", "alice", 2),
				voted("p1", "rita", 2, approve, "e1", "e2"), voted("p1", "ravi", 2, approve, "e1", "e2"), validated("p1", 2, "ravi", "rita")} {
				w.apply(g.actor, g.agg, g.data)
			}
		}},
		{"new weights", func(w *world) {
			w.apply("pat", domain.RankingID(rk), &events.WeightsSet{Weights: map[string]int{"price": 50, "perf": 25, "support": 25}})
		}},
		{"another edition", func(w *world) {
			w.apply("pat", domain.EditionID(rk), &events.EditionPublished{Ranking: rk, Number: 2, Proposals: []string{"p4"},
				Changes: []events.AppliedChange{{Proposal: "p4", Entry: "bolt", Target: "score:perf", ToScore: ptr(3), Evidence: []string{"e1"}}}})
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t, p1Validated())
			chosen := []*domain.Proposal{w.prop("p1")}
			pv, err := domain.Preview(w.ranking, w.edition, chosen, nil)
			if err != nil {
				t.Fatal(err)
			}
			tt.change(w)
			chosen = []*domain.Proposal{w.prop("p1")}
			_, err = domain.DecidePublish(w.ranking, w.edition, chosen, nil, nil, actor("pat"),
				domain.PublishEdition{Ranking: rk, Proposals: []string{"p1"}, PreviewHash: pv.Hash})
			if !errors.Is(err, domain.ErrPreviewChanged) {
				t.Errorf("publish with the earlier preview: %v, want ErrPreviewChanged", err)
			}
		})
	}
	t.Run("a hash from nowhere", func(t *testing.T) {
		w := newWorld(t, p1Validated())
		_, err := domain.DecidePublish(w.ranking, w.edition, []*domain.Proposal{w.prop("p1")}, nil, nil, actor("pat"),
			domain.PublishEdition{Ranking: rk, Proposals: []string{"p1"}, PreviewHash: "00"})
		if !errors.Is(err, domain.ErrPreviewChanged) {
			t.Errorf("publish with a made-up hash: %v, want ErrPreviewChanged", err)
		}
	})
}

func TestDecidePublish(t *testing.T) {
	w := newWorld(t, p1Validated(),
		crossValidatedOn("p3", "bob", "acme", "price", ptr(5), 4),         // same baseline as p1: goes back to review
		crossValidatedOn("p4", "bob", "bolt", "perf", nil, 6),             // another entry: untouched
		cat(crossValidatedOn("p5", "bob", "acme", "perf", ptr(6), 9)[:4]), // in review: not returned
	)
	pv, err := domain.Preview(w.ranking, w.edition, []*domain.Proposal{w.prop("p1")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := domain.DecidePublish(w.ranking, w.edition, []*domain.Proposal{w.prop("p1")}, nil,
		w.proposals([]string{"p5", "p4", "p3", "p1"}), actor("pat"),
		domain.PublishEdition{Ranking: rk, Proposals: []string{"p1"}, PreviewHash: pv.Hash, Note: "March"})
	if err != nil {
		t.Fatal(err)
	}
	want := changes(
		domain.Change{Aggregate: domain.EditionID(rk), Data: &events.EditionPublished{Ranking: rk, Number: 2,
			Proposals: []string{"p1"},
			Changes: []events.AppliedChange{{Proposal: "p1", Entry: "acme", Target: "score:price",
				FromScore: ptr(5), ToScore: ptr(7), Evidence: []string{"e1"}}},
			PreviewHash: pv.Hash, SnapshotHash: pv.SnapshotHash, Note: "March"}},
		on("p1", &events.ProposalPublished{Edition: 2, Revision: 1}),
		on("p3", &events.ProposalReturnedToReview{Edition: 2, Targets: []string{"score:price"}, Reason: "baseline_changed"}),
	)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("events:\n got %s\nwant %s", show(got), show(want))
	}
	w.applyChanges("pat", got)

	if snap := domain.BuildSnapshot(w.ranking, w.edition); snap.Hash() != pv.SnapshotHash || !reflect.DeepEqual(snap, pv.After) {
		t.Errorf("the published edition's snapshot differs from the preview's")
	}
	if got := w.edition.Entry("acme").Scores["price"]; got != 7 {
		t.Errorf("acme price = %d, want 7", got)
	}

	// p3 went back to review: it cannot be previewed, the quorum reports
	// the stale baseline, votes no longer validate it, and revising rebases.
	p3 := w.prop("p3")
	if p3.Status != domain.StatusInReview {
		t.Fatalf("p3 status = %s, want in_review", p3.Status)
	}
	if _, err := domain.Preview(w.ranking, w.edition, []*domain.Proposal{p3}, nil); !errors.Is(err, domain.ErrNotCrossValidated) {
		t.Errorf("preview of p3: %v, want ErrNotCrossValidated", err)
	}
	if q := domain.Quorum(p3, w.ranking.Quorum, w.edition); q.Met || !reflect.DeepEqual(q.StaleTarget, []string{"score:price"}) {
		t.Errorf("p3 quorum = %+v, want not met for the stale price", q)
	}
	if cs, err := castVote("rosa", "p3", 1, approve, "e1")(w); err != nil || len(cs) != 1 {
		t.Errorf("another approval of p3 = %s, %v; want only the vote", show(cs), err)
	}
	if _, err := domain.DecideSubmit(w.edition, p3, actor("bob")); !errors.Is(err, domain.ErrNotDraft) {
		t.Errorf("submit of p3 before revising: %v, want ErrNotDraft", err)
	}
	cs, err := domain.DecideRevise(w.edition, p3, actor("bob"), "rebase on edition 2")
	if err != nil {
		t.Fatal(err)
	}
	w.applyChanges("bob", cs)
	if got := w.prop("p3").Scores["price"].From; got == nil || *got != 7 {
		t.Errorf("p3 price baseline after revising = %v, want 7", got)
	}
	if _, err := domain.DecideSubmit(w.edition, w.prop("p3"), actor("bob")); err != nil {
		t.Errorf("submit of p3 after revising: %v", err)
	}
	if got := w.prop("p4").Status; got != domain.StatusCrossValidated {
		t.Errorf("p4 status = %s, want cross_validated", got)
	}
	if got := w.prop("p5").Status; got != domain.StatusInReview {
		t.Errorf("p5 status = %s, want in_review", got)
	}
	if _, err := domain.DecideSubmit(w.edition, w.prop("p5"), actor("bob")); !errors.Is(err, domain.ErrNotDraft) {
		t.Errorf("p5 submit: %v", err)
	}
}

// TestStaleBaselineWithoutReturn: a cross-validated proposal the publisher
// did not list among the others keeps its status, but Preview refuses it
// until it is revised.
func TestStaleBaselineWithoutReturn(t *testing.T) {
	w := newWorld(t, p1Validated(), crossValidatedOn("p3", "bob", "acme", "price", ptr(5), 4))
	cs, err := publishWith("pat", []string{"p1"})(w)
	if err != nil {
		t.Fatal(err)
	}
	w.applyChanges("pat", cs)
	if _, err := domain.Preview(w.ranking, w.edition, []*domain.Proposal{w.prop("p3")}, nil); !errors.Is(err, domain.ErrStaleBaseline) {
		t.Fatalf("preview of stale p3: %v, want ErrStaleBaseline", err)
	}
	cs, err = domain.DecideRevise(w.edition, w.prop("p3"), actor("bob"), "")
	if err != nil {
		t.Fatal(err)
	}
	w.applyChanges("bob", cs)
	if _, err := domain.DecideSubmit(w.edition, w.prop("p3"), actor("bob")); err != nil {
		t.Fatalf("submit after revising: %v", err)
	}
}

func TestDecidePublishNewEntry(t *testing.T) {
	w := newWorld(t, defined(), novaValidated())
	cs, err := publishWith("pat", []string{"p9"})(w)
	if err != nil {
		t.Fatal(err)
	}
	ep, ok := cs[0].Data.(*events.EditionPublished)
	if !ok {
		t.Fatalf("first event %T, want EditionPublished", cs[0].Data)
	}
	wantNew := []events.PublishedEntry{{Slug: "nova", Name: events.Text{Zh: "新云", En: "Nova"}, Category: "market",
		Website: "https://nova.example", Proposal: "p9"}}
	if !reflect.DeepEqual(ep.NewEntries, wantNew) {
		t.Errorf("NewEntries = %+v, want %+v", ep.NewEntries, wantNew)
	}
	w.applyChanges("pat", cs)
	got := w.edition.Entry("nova")
	want := &domain.PublishedEntry{Slug: "nova", Name: events.Text{Zh: "新云", En: "Nova"}, Category: "market",
		Website: "https://nova.example", Scores: map[string]int{"price": 9}, Attributes: map[string][]string{}, Since: 2}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("published nova = %+v, want %+v", got, want)
	}
	if domain.BuildSnapshot(w.ranking, w.edition).Hash() != ep.SnapshotHash {
		t.Errorf("snapshot hash of the published state differs from the event's")
	}
}

// TestPreviewNewEntryWithFollowUp: a new-entry proposal and a follow-up
// proposal on the same (registered, unpublished) entry may be published
// together, whatever order their ids sort in.
func TestPreviewNewEntryWithFollowUp(t *testing.T) {
	for _, followUp := range []string{"p2", "p99"} { // sorts before / after p9
		t.Run(followUp, func(t *testing.T) {
			w := newWorld(t, defined(), novaValidated(), crossValidatedOn(followUp, "alice", "nova", "perf", nil, 8))
			cs, err := publishWith("pat", []string{followUp, "p9"})(w)
			if err != nil {
				t.Fatalf("publishing p9 with %s: %v", followUp, err)
			}
			w.applyChanges("pat", cs)
			if got := w.edition.Entry("nova"); got == nil || !reflect.DeepEqual(got.Scores, map[string]int{"price": 9, "perf": 8}) {
				t.Errorf("nova = %+v, want price 9 and perf 8", got)
			}
		})
	}
}

// TestPreviewIsOrderIndependent: the chosen proposals' order changes
// neither the preview hash nor the events.
func TestPreviewIsOrderIndependent(t *testing.T) {
	w := newWorld(t, p1Validated(), crossValidatedOn("p4", "bob", "bolt", "perf", nil, 6), novaValidated())
	a, err := domain.Preview(w.ranking, w.edition, w.proposals([]string{"p1", "p4", "p9"}), w.entries)
	if err != nil {
		t.Fatal(err)
	}
	b, err := domain.Preview(w.ranking, w.edition, w.proposals([]string{"p9", "p1", "p4"}), w.entries)
	if err != nil {
		t.Fatal(err)
	}
	if a.Hash != b.Hash || !reflect.DeepEqual(a, b) {
		t.Errorf("previews differ with the proposals' order")
	}
	if want := []string{"p1", "p4", "p9"}; !reflect.DeepEqual(a.Proposals, want) {
		t.Errorf("Proposals = %v, want %v", a.Proposals, want)
	}
}
