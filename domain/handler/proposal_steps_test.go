package handler_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/events/jetstream/jstest"
)

// entrySteps are a new entry's proposal with two evidence items, a score
// and an attribute, submitted: what a ranking file's import does per entry.
func entrySteps(id, entry string) handler.ProposalSteps {
	return handler.ProposalSteps{
		Open: &domain.OpenProposal{CommandID: id + "-open", ID: id, Ranking: rk, Entry: entry, Title: "Add " + entry, NewEntry: newEntry()},
		Evidence: []domain.AddEvidence{
			{CommandID: id + "-ev1", Proposal: id, Claim: events.Text{En: "price list"}, SourceURL: "https://nova.example/price", Excerpt: "price list", ObservedOn: "2026-02-20"},
			{CommandID: id + "-ev2", Proposal: id, Claim: events.Text{En: "root access"}, SourceURL: "https://nova.example/root", Excerpt: "root", ObservedOn: "2026-02-20"},
		},
		Scores:     []domain.ProposeScore{{CommandID: id + "-price", Proposal: id, Criterion: "price", To: 9, Rationale: events.Text{En: "cheapest"}, Evidence: []string{"e1"}}},
		Attributes: []domain.ProposeAttribute{{CommandID: id + "-root", Proposal: id, Attribute: "root", To: []string{"yes"}, Rationale: events.Text{En: "documented"}, Evidence: []string{"e2"}}},
		Submit:     &domain.Submit{CommandID: id + "-submit", Proposal: id},
	}
}

// TestProposalSteps: an entry's commands run as one store the events the
// same commands one by one store, in one append; again, they store
// nothing; a refused step, or a step naming another proposal, stores
// nothing of the entry; steps an earlier run stored are passed over.
func TestProposalSteps(t *testing.T) {
	ctx := testCtx(t)
	st := newStore(t)
	h := handler.New(st, nil)
	jstest.DefineRanking(t, st, rankingDefinition(), nil)
	alice := actor("alice")
	last := func() uint64 {
		t.Helper()
		seq, err := st.LastSequence(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return seq
	}
	stored := func(id string) []events.Event {
		t.Helper()
		evs, err := st.Load(ctx, domain.ProposalID(id), 0)
		if err != nil {
			t.Fatal(err)
		}
		return evs
	}

	one := entrySteps("p1", "nova")
	must(t)(h.OpenProposal(ctx, alice, *one.Open))
	for _, c := range one.Evidence {
		must(t)(h.AddEvidence(ctx, alice, c))
	}
	must(t)(h.ProposeScore(ctx, alice, one.Scores[0]))
	must(t)(h.ProposeAttribute(ctx, alice, one.Attributes[0]))
	must(t)(h.Submit(ctx, alice, *one.Submit))

	before := last()
	res := must(t)(h.RunProposalSteps(ctx, alice, entrySteps("p2", "vega")))
	// EntryCreated, ProposalOpened, two evidence items, a score, an
	// attribute, the submission: stored together, ending the stream.
	if res.Sequence != last() || res.Sequence != before+7 || len(res.EventIDs) != 7 || res.Replayed {
		t.Fatalf("steps: %+v, stream %d → %d, want 7 events at once", res, before, last())
	}
	p1, p2 := stored("p1"), stored("p2")
	typesOf := func(evs []events.Event) []string {
		var ts []string
		for _, ev := range evs {
			ts = append(ts, ev.Type)
		}
		return ts
	}
	if !slices.Equal(typesOf(p1), typesOf(p2)) {
		t.Errorf("one by one the proposal's events are %v, as steps %v", typesOf(p1), typesOf(p2))
	}
	for i, ev := range p2 {
		if i > 0 && ev.Sequence != p2[i-1].Sequence+1 {
			t.Errorf("the steps' proposal events are not contiguous: %d after %d", ev.Sequence, p2[i-1].Sequence)
		}
		if !slices.Contains([]string{"p2-open", "p2-ev1", "p2-ev2", "p2-price", "p2-root", "p2-submit"}, ev.CausationID) {
			t.Errorf("event %d caused by %q, not by one of the steps", i, ev.CausationID)
		}
	}
	for _, id := range []string{"p2-open", "p2-ev1", "p2-ev2", "p2-price", "p2-root", "p2-submit"} {
		if !slices.Contains(res.EventIDs, id) { // the open's is the entry's EntryCreated
			t.Errorf("no event of the steps has command %s's id", id)
		}
	}
	a, err := h.Proposal(ctx, "p1")
	if err != nil {
		t.Fatal(err)
	}
	b, err := h.Proposal(ctx, "p2")
	if err != nil {
		t.Fatal(err)
	}
	if a.Status != b.Status || b.Status != domain.StatusInReview || len(a.Evidence) != len(b.Evidence) ||
		len(a.Scores) != len(b.Scores) || len(a.Attributes) != len(b.Attributes) || a.Revision != b.Revision {
		t.Errorf("one by one: %s rev %d, %d evidence, %d scores, %d attributes; as steps: %s rev %d, %d, %d, %d",
			a.Status, a.Revision, len(a.Evidence), len(a.Scores), len(a.Attributes),
			b.Status, b.Revision, len(b.Evidence), len(b.Scores), len(b.Attributes))
	}

	// Again: every step is stored already.
	again := must(t)(h.RunProposalSteps(ctx, alice, entrySteps("p2", "vega")))
	if !again.Replayed || again.Sequence < res.Sequence || last() != res.Sequence {
		t.Errorf("the steps again: %+v, stream at %d, want a replay storing nothing", again, last())
	}

	// A refused step refuses them all.
	bad := entrySteps("p3", "orion")
	bad.Scores[0].Criterion = "no-such-criterion"
	if _, err := h.RunProposalSteps(ctx, alice, bad); err == nil {
		t.Error("a score on an unknown criterion was accepted")
	}
	mixed := entrySteps("p4", "lyra")
	mixed.Evidence[1].Proposal = "p1"
	if _, err := h.RunProposalSteps(ctx, alice, mixed); err == nil {
		t.Error("steps naming two proposals were accepted")
	}
	if last() != res.Sequence {
		t.Errorf("refused steps stored events: stream at %d, was %d", last(), res.Sequence)
	}
	for _, id := range []string{"p3", "p4"} {
		if _, err := h.Proposal(ctx, id); !errors.Is(err, domain.ErrProposalMissing) {
			t.Errorf("%s after refused steps: %v, want it missing", id, err)
		}
	}

	// Opened one by one before (an import cut short): the rest is carried out.
	part := entrySteps("p5", "deneb")
	must(t)(h.OpenProposal(ctx, alice, *part.Open))
	must(t)(h.AddEvidence(ctx, alice, part.Evidence[0]))
	res = must(t)(h.RunProposalSteps(ctx, alice, part))
	if res.Replayed || len(res.EventIDs) != 4 {
		t.Errorf("the rest of p5's steps: %+v, want the second evidence item, score, attribute and submission", res)
	}
	if p, err := h.Proposal(ctx, "p5"); err != nil || p.Status != domain.StatusInReview || len(p.Evidence) != 2 {
		t.Errorf("p5 after its steps: %+v, %v", p, err)
	}
}
