package handler_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events"
)

// methodologyDesk drives the handler through methodology proposals on a
// real store: it opens, proposes, submits and cross-validates them.
type methodologyDesk struct {
	t testing.TB
	h *handler.Handler
}

func (d methodologyDesk) propose(id string, newRanking bool, m events.Methodology) {
	d.t.Helper()
	ctx := testCtx(d.t)
	must(d.t)(d.h.OpenProposal(ctx, actor("alice"), domain.OpenProposal{CommandID: newCommandID(), ID: id, Ranking: rk,
		Methodology: true, NewRanking: newRanking, Title: "Methodology " + id}))
	must(d.t)(d.h.ProposeMethodology(ctx, actor("alice"), domain.ProposeMethodology{CommandID: newCommandID(), Proposal: id,
		Methodology: m, Rationale: events.Text{En: "Because readers asked."}}))
}

// validate submits proposal id and has rita and ravi approve its current
// revision, verifying its evidence.
func (d methodologyDesk) validate(id string) {
	d.t.Helper()
	ctx := testCtx(d.t)
	must(d.t)(d.h.Submit(ctx, actor("alice"), domain.Submit{CommandID: newCommandID(), Proposal: id}))
	p, err := d.h.Proposal(ctx, id)
	if err != nil {
		d.t.Fatal(err)
	}
	for _, r := range []string{"rita", "ravi"} {
		must(d.t)(d.h.CastVote(ctx, actor(r), domain.CastVote{CommandID: newCommandID(), Proposal: id, Revision: p.Revision,
			Verdict: approve, VerifiedEvidence: p.EvidenceIDs()}))
	}
	if p, _ := d.h.Proposal(ctx, id); p.Status != domain.StatusCrossValidated {
		d.t.Fatalf("%s is %s after two approvals, want cross_validated", id, p.Status)
	}
}

func (d methodologyDesk) publish(candidates []string, ids ...string) (handler.Result, error) {
	ctx := testCtx(d.t)
	pv, _, err := d.h.PreviewEdition(ctx, rk, ids)
	if err != nil {
		return handler.Result{}, err
	}
	return d.h.Publish(ctx, actor("pat"), domain.PublishEdition{CommandID: newCommandID(), Ranking: rk, Proposals: ids,
		PreviewHash: pv.Hash, Candidates: candidates})
}

// TestMethodologyDefinesARankingWithItsEntries: a ranking is defined by a
// reviewed new-ranking proposal and published in edition 1 with the entry
// proposals that depend on it; until then it does not exist.
func TestMethodologyDefinesARankingWithItsEntries(t *testing.T) {
	ctx := testCtx(t)
	h := handler.New(newStore(t), nil)
	d := methodologyDesk{t, h}
	m := methodologyOf(rankingDefinition(), scenarios())
	d.propose("m1", true, m)

	// An entry proposal needs the definition it depends on.
	open := domain.OpenProposal{CommandID: newCommandID(), ID: "p1", Ranking: rk, Entry: "nova", Title: "Add Nova", NewEntry: newEntry()}
	if _, err := h.OpenProposal(ctx, actor("alice"), open); !errors.Is(err, domain.ErrRankingMissing) {
		t.Fatalf("entry proposal on an undefined ranking: %v, want ErrRankingMissing", err)
	}
	open.CommandID, open.DependsOn = newCommandID(), "m1"
	must(t)(h.OpenProposal(ctx, actor("alice"), open))
	must(t)(h.AddEvidence(ctx, actor("alice"), domain.AddEvidence{CommandID: newCommandID(), Proposal: "p1", Claim: events.Text{En: "price list"},
		SourceURL: "https://nova.example/p", Excerpt: "¥5/h", ObservedOn: "2026-02-20"}))
	for crit, v := range map[string]int{"price": 9, "perf": 5} {
		must(t)(h.ProposeScore(ctx, actor("alice"), domain.ProposeScore{CommandID: newCommandID(), Proposal: "p1", Criterion: crit,
			To: v, Rationale: events.Text{En: "list price"}, Evidence: []string{"e1"}}))
	}
	if _, err := h.ProposeScore(ctx, actor("alice"), domain.ProposeScore{CommandID: newCommandID(), Proposal: "p1", Criterion: "speed",
		To: 5, Rationale: events.Text{En: "r"}, Evidence: []string{"e1"}}); !errors.Is(err, domain.ErrInvalid) {
		t.Errorf("a score for a criterion the proposed methodology lacks: %v, want ErrInvalid", err)
	}
	d.validate("m1")
	d.validate("p1")

	if _, err := d.publish(nil, "p1"); !errors.Is(err, domain.ErrRankingMissing) {
		t.Errorf("publishing entries without their ranking's definition: %v, want ErrRankingMissing", err)
	}
	must(t)(d.publish(nil, "m1", "p1"))
	r, err := h.Ranking(ctx, rk)
	if err != nil || !r.Exists() || r.Edition != 1 {
		t.Fatalf("ranking after edition 1 = %+v, %v; want defined by edition 1", r, err)
	}
	if got := r.Methodology(); domain.MethodologyHash(got) != domain.MethodologyHash(m) {
		t.Errorf("published methodology differs from the proposed one:\n got %+v\nwant %+v", got, m)
	}
	ed, _ := h.Edition(ctx, rk)
	if ed.Number != 1 || ed.Entry("nova") == nil || ed.Entry("nova").Scores["price"] != 9 || ed.MethodologyEdition != 1 {
		t.Fatalf("edition = %+v", ed)
	}
	if ed.Last.Methodology != "m1" {
		t.Errorf("edition 1 names methodology proposal %q, want m1", ed.Last.Methodology)
	}

	// The slug is taken now.
	if _, err := h.OpenProposal(ctx, actor("bob"), domain.OpenProposal{CommandID: newCommandID(), ID: "m9", Ranking: rk,
		Methodology: true, NewRanking: true, Title: "Again"}); !errors.Is(err, domain.ErrRankingExists) {
		t.Errorf("a second definition of a published ranking: %v, want ErrRankingExists", err)
	}
}

// TestMethodologyChangesThroughEditions: a change proposal retires a
// criterion (the edition clears its scores), another one proposed against
// the same methodology goes stale and returns to review, two in one edition
// are refused, and a category that still holds entries cannot be retired.
func TestMethodologyChangesThroughEditions(t *testing.T) {
	ctx := testCtx(t)
	h := handler.New(newStore(t), nil)
	d := methodologyDesk{t, h}
	base := methodologyOf(rankingDefinition(), scenarios())
	d.propose("m1", true, base)
	d.validate("m1")
	open := domain.OpenProposal{CommandID: newCommandID(), ID: "p1", Ranking: rk, Entry: "nova", Title: "Add Nova",
		NewEntry: newEntry(), DependsOn: "m1"}
	must(t)(h.OpenProposal(ctx, actor("alice"), open))
	must(t)(h.AddEvidence(ctx, actor("alice"), domain.AddEvidence{CommandID: newCommandID(), Proposal: "p1", Claim: events.Text{En: "c"},
		SourceName: "s", Excerpt: "x", ObservedOn: "2026-02-20"}))
	for crit, v := range map[string]int{"price": 9, "perf": 5} {
		must(t)(h.ProposeScore(ctx, actor("alice"), domain.ProposeScore{CommandID: newCommandID(), Proposal: "p1", Criterion: crit,
			To: v, Rationale: events.Text{En: "r"}, Evidence: []string{"e1"}}))
	}
	d.validate("p1")
	must(t)(d.publish(nil, "m1", "p1"))

	// A proposal that changes nothing is refused.
	must(t)(h.OpenProposal(ctx, actor("alice"), domain.OpenProposal{CommandID: newCommandID(), ID: "m0", Ranking: rk,
		Methodology: true, Title: "Nothing"}))
	if _, err := h.ProposeMethodology(ctx, actor("alice"), domain.ProposeMethodology{CommandID: newCommandID(), Proposal: "m0",
		Methodology: base, Rationale: events.Text{En: "r"}}); !errors.Is(err, domain.ErrInvalid) {
		t.Errorf("proposing the published methodology: %v, want ErrInvalid", err)
	}

	retire := base
	retire.Criteria = []events.Criterion{base.Criteria[0], base.Criteria[2]}
	retire.Criteria[0].Weight, retire.Criteria[1].Weight = 60, 40
	retire.Scenarios = nil
	d.propose("m2", false, retire)
	reweigh := base
	reweigh.Criteria = slices.Clone(base.Criteria)
	reweigh.Criteria[0].Weight, reweigh.Criteria[1].Weight = 30, 45
	d.propose("m3", false, reweigh)
	d.validate("m2")
	d.validate("m3")
	if _, err := d.publish(nil, "m2", "m3"); !errors.Is(err, domain.ErrDuplicateTarget) {
		t.Errorf("two methodology proposals in one edition: %v, want ErrDuplicateTarget", err)
	}
	must(t)(d.publish([]string{"m3"}, "m2"))

	ed, _ := h.Edition(ctx, rk)
	if _, ok := ed.Entry("nova").Scores["perf"]; ok || ed.Entry("nova").Scores["price"] != 9 {
		t.Errorf("nova's scores after perf was retired: %v", ed.Entry("nova").Scores)
	}
	cleared := slices.IndexFunc(ed.Last.Changes, func(c events.AppliedChange) bool {
		return c.Proposal == "m2" && c.Entry == "nova" && c.Target == "score:perf" && c.ToScore == nil && c.FromScore != nil && *c.FromScore == 5
	})
	if cleared < 0 {
		t.Errorf("edition 2 changes %+v lack the cleared perf score", ed.Last.Changes)
	}
	r, _ := h.Ranking(ctx, rk)
	if r.HasCriterion("perf") || r.Edition != 2 {
		t.Errorf("ranking after edition 2: criteria %v, methodology of edition %d", r.CriterionSlugs(), r.Edition)
	}
	m3, _ := h.Proposal(ctx, "m3")
	if m3.Status != domain.StatusInReview || !slices.Contains(domain.Quorum(m3, r.Quorum, ed).StaleTarget, "methodology") {
		t.Errorf("m3 after m2 was published: %s, stale %v; want returned to review with a stale methodology", m3.Status,
			domain.Quorum(m3, r.Quorum, ed).StaleTarget)
	}
	// Revising moves its base; it can then be proposed again on the new
	// methodology and reviewed.
	must(t)(h.Revise(ctx, actor("alice"), domain.Revise{CommandID: newCommandID(), Proposal: "m3", Note: "rebased"}))
	if m3, _ = h.Proposal(ctx, "m3"); m3.Methodology.Base != 2 {
		t.Errorf("m3's base after the revision = %d, want 2", m3.Methodology.Base)
	}

	// Retiring the category nova is in is refused at publish time.
	noCloud := r.Methodology()
	noCloud.Categories = slices.DeleteFunc(slices.Clone(noCloud.Categories), func(c events.Category) bool { return c.Slug == "market" })
	d.propose("m4", false, noCloud)
	d.validate("m4")
	var fe *domain.FieldError
	if _, err := d.publish(nil, "m4"); !errors.As(err, &fe) || fe.Code != "methodology.category_in_use" {
		t.Errorf("retiring a category that holds an entry: %v, want methodology.category_in_use", err)
	}
}
