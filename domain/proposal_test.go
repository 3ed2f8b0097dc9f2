package domain_test

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

func on(id string, data any) domain.Change {
	return domain.Change{Aggregate: domain.ProposalID(id), Data: data}
}

func openProposal(who string, c domain.OpenProposal) func(w *world) ([]domain.Change, error) {
	return func(w *world) ([]domain.Change, error) {
		return domain.DecideOpenProposal(w.ranking, w.entry(c.Entry), w.edition, w.prop(c.ID), actor(who), c)
	}
}

func newEntry() *domain.NewEntry {
	return &domain.NewEntry{Name: events.Text{Zh: "新云", En: "Nova"}, Category: "market", Website: "https://nova.example"}
}

func TestDecideOpenProposal(t *testing.T) {
	existing := domain.OpenProposal{ID: "p1", Ranking: rk, Entry: "acme", Title: "Acme got cheaper"}
	fresh := domain.OpenProposal{ID: "p1", Ranking: rk, Entry: "nova", Title: "Add Nova", NewEntry: newEntry()}
	with := func(c domain.OpenProposal, f func(*domain.OpenProposal)) domain.OpenProposal { f(&c); return c }
	runDecide(t, []decideTest{
		{name: "existing entry", given: defined(), when: openProposal("alice", existing),
			want: changes(on("p1", &events.ProposalOpened{Ranking: rk, Entry: "acme", Title: "Acme got cheaper"}))},
		{name: "new entry: EntryCreated, then ProposalOpened", given: defined(), when: openProposal("alice", fresh),
			want: changes(
				domain.Change{Aggregate: domain.EntryID(rk, "nova"), Data: &events.EntryCreated{Ranking: rk, Slug: "nova",
					Name: events.Text{Zh: "新云", En: "Nova"}, Category: "market", Website: "https://nova.example", Proposal: "p1"}},
				on("p1", &events.ProposalOpened{Ranking: rk, Entry: "nova", NewEntry: true, Title: "Add Nova"}))},
		{name: "a registered, unpublished entry can get a second proposal",
			given: cat(defined(), []given{{"alice", domain.EntryID(rk, "nova"), &events.EntryCreated{Ranking: rk, Slug: "nova",
				Name: events.Text{En: "Nova"}, Category: "market", Proposal: "p0"}}}),
			when: openProposal("bob", with(existing, func(c *domain.OpenProposal) { c.Entry = "nova" })),
			want: changes(on("p1", &events.ProposalOpened{Ranking: rk, Entry: "nova", Title: "Acme got cheaper"}))},
		{name: "unknown entry", given: defined(),
			when: openProposal("alice", with(existing, func(c *domain.OpenProposal) { c.Entry = "zeta" })), err: domain.ErrEntryMissing},
		{name: "new entry that is published", given: defined(),
			when: openProposal("alice", with(fresh, func(c *domain.OpenProposal) { c.Entry = "acme" })), err: domain.ErrEntryExists},
		{name: "new entry that is registered",
			given: cat(defined(), []given{{"alice", domain.EntryID(rk, "nova"), &events.EntryCreated{Ranking: rk, Slug: "nova",
				Name: events.Text{En: "Nova"}, Category: "market", Proposal: "p0"}}}),
			when: openProposal("alice", fresh), err: domain.ErrEntryExists},
		{name: "unknown ranking", when: openProposal("alice", existing), err: domain.ErrRankingMissing},
		{name: "proposal id taken", given: cat(defined(), []given{opened("p1", "bob", "bolt")}),
			when: openProposal("alice", existing), err: domain.ErrProposalExists},
		{name: "a reviewer cannot open a proposal", given: defined(), when: openProposal("rita", existing), err: domain.ErrRoleRequired},
		{name: "a publisher cannot open a proposal", given: defined(), when: openProposal("pat", existing), err: domain.ErrRoleRequired},
		{name: "unknown category", given: defined(),
			when: openProposal("alice", with(fresh, func(c *domain.OpenProposal) {
				c.NewEntry = &domain.NewEntry{Name: events.Text{En: "Nova"}, Category: "hosting"}
			})), err: domain.ErrInvalid},
		{name: "new entry needs a name", given: defined(),
			when: openProposal("alice", with(fresh, func(c *domain.OpenProposal) {
				c.NewEntry = &domain.NewEntry{Category: "market"}
			})), err: domain.ErrInvalid},
		{name: "new entry website must be http(s)", given: defined(),
			when: openProposal("alice", with(fresh, func(c *domain.OpenProposal) {
				c.NewEntry = &domain.NewEntry{Name: events.Text{En: "Nova"}, Category: "market", Website: "javascript:alert(1)"}
			})), err: domain.ErrInvalid},
		{name: "title required", given: defined(),
			when: openProposal("alice", with(existing, func(c *domain.OpenProposal) { c.Title = "" })), err: domain.ErrInvalid},
		{name: "bad proposal id", given: defined(),
			when: openProposal("alice", with(existing, func(c *domain.OpenProposal) { c.ID = "P 1" })), err: domain.ErrInvalid},
		{name: "bad entry slug", given: defined(),
			when: openProposal("alice", with(fresh, func(c *domain.OpenProposal) { c.Entry = "No_Va" })), err: domain.ErrInvalid},
	})
}

func addEvidence(who string) func(w *world) ([]domain.Change, error) {
	return func(w *world) ([]domain.Change, error) {
		return domain.DecideAddEvidence(w.prop("p1"), actor(who), domain.AddEvidence{Proposal: "p1",
			Claim: events.Text{En: "price cut"}, SourceURL: "https://acme.example/pricing", Excerpt: "now ¥5/h", ObservedOn: "2026-02-20"})
	}
}

func evidenceAdded(id string, rev int) domain.Change {
	return on("p1", &events.EvidenceAdded{EvidenceID: id, Revision: rev, Claim: events.Text{En: "price cut"},
		SourceURL: "https://acme.example/pricing", Excerpt: "now ¥5/h", ObservedOn: "2026-02-20"})
}

func proposeScore(who string, crit string, to int, cites ...string) func(w *world) ([]domain.Change, error) {
	return func(w *world) ([]domain.Change, error) {
		return domain.DecideProposeScore(w.ranking, w.edition, w.prop("p1"), actor(who),
			domain.ProposeScore{Proposal: "p1", Criterion: crit, To: to, Rationale: events.Text{En: "because"}, Evidence: cites})
	}
}

func proposeAttr(who, attr string, to []string, cites ...string) func(w *world) ([]domain.Change, error) {
	return func(w *world) ([]domain.Change, error) {
		return domain.DecideProposeAttribute(w.ranking, w.edition, w.prop("p1"), actor(who),
			domain.ProposeAttribute{Proposal: "p1", Attribute: attr, To: to, Rationale: events.Text{En: "because"}, Evidence: cites})
	}
}

func submit(who string) func(w *world) ([]domain.Change, error) {
	return func(w *world) ([]domain.Change, error) {
		return domain.DecideSubmit(w.edition, w.prop("p1"), actor(who))
	}
}

func revise(who string) func(w *world) ([]domain.Change, error) {
	return func(w *world) ([]domain.Change, error) {
		return domain.DecideRevise(w.edition, w.prop("p1"), actor(who), "")
	}
}

func withdraw(who string) func(w *world) ([]domain.Change, error) {
	return func(w *world) ([]domain.Change, error) { return domain.DecideWithdraw(w.prop("p1"), actor(who), "") }
}

func rejectProposal(who string) func(w *world) ([]domain.Change, error) {
	return func(w *world) ([]domain.Change, error) {
		return domain.DecideReject(w.prop("p1"), actor(who), "out of scope")
	}
}

// edition2 publishes acme price 5 → 6 from another proposal, p2.
func edition2() given {
	return given{"pat", domain.EditionID(rk), &events.EditionPublished{Ranking: rk, Number: 2, Proposals: []string{"p2"},
		Changes: []events.AppliedChange{{Proposal: "p2", Entry: "acme", Target: "score:price",
			FromScore: ptr(5), ToScore: ptr(6), Evidence: []string{"e1"}}}}}
}

func TestDecideProposalEdits(t *testing.T) {
	withdrawn := cat(p1Draft(), []given{closedBy("p1", "alice", &events.ProposalWithdrawn{})})
	runDecide(t, []decideTest{
		// evidence
		{name: "first evidence is e1", given: cat(defined(), []given{opened("p1", "alice", "acme")}),
			when: addEvidence("alice"), want: changes(evidenceAdded("e1", 1))},
		{name: "evidence ids are never reused",
			given: cat(p1Draft(), []given{{"alice", domain.ProposalID("p1"), &events.EvidenceRemoved{EvidenceID: "e2", Revision: 1}}}),
			when:  addEvidence("alice"), want: changes(evidenceAdded("e3", 1))},
		{name: "evidence on a new revision carries its number",
			given: cat(p1InReview(), []given{revised("p1", "alice", 2)}),
			when:  addEvidence("alice"), want: changes(evidenceAdded("e3", 2))},
		{name: "a reviser may edit", given: cat(p1InReview(), []given{revised("p1", "bob", 2)}),
			when: addEvidence("bob"), want: changes(evidenceAdded("e3", 2))},
		{name: "edit by a non-author", given: p1Draft(), when: addEvidence("bob"), err: domain.ErrNotAuthor},
		{name: "edit in review", given: p1InReview(), when: addEvidence("alice"), err: domain.ErrNotDraft},
		{name: "edit when cross-validated", given: p1Validated(), when: addEvidence("alice"), err: domain.ErrNotDraft},
		{name: "edit when withdrawn", given: withdrawn, when: addEvidence("alice"), err: domain.ErrClosed},
		{name: "edit by the author without the editor role", given: cat(defined(), []given{opened("p1", "rita", "acme")}),
			when: addEvidence("rita"), err: domain.ErrRoleRequired},
		{name: "edit of a missing proposal", given: defined(), when: addEvidence("alice"), err: domain.ErrProposalMissing},
		{name: "remove uncited evidence", given: p1Draft(),
			when: func(w *world) ([]domain.Change, error) {
				return domain.DecideRemoveEvidence(w.prop("p1"), actor("alice"), "e2")
			},
			want: changes(on("p1", &events.EvidenceRemoved{EvidenceID: "e2", Revision: 1}))},
		{name: "remove cited evidence", given: p1Draft(),
			when: func(w *world) ([]domain.Change, error) {
				return domain.DecideRemoveEvidence(w.prop("p1"), actor("alice"), "e1")
			},
			err: domain.ErrInvalid},
		{name: "remove unknown evidence", given: p1Draft(),
			when: func(w *world) ([]domain.Change, error) {
				return domain.DecideRemoveEvidence(w.prop("p1"), actor("alice"), "e9")
			},
			err: domain.ErrUnknownEvidence},
		{name: "remove evidence in review", given: p1InReview(),
			when: func(w *world) ([]domain.Change, error) {
				return domain.DecideRemoveEvidence(w.prop("p1"), actor("alice"), "e2")
			},
			err: domain.ErrNotDraft},

		// score changes
		{name: "score change takes the published value as its baseline", given: p1Draft(),
			when: proposeScore("alice", "perf", 8, "e2"),
			want: changes(on("p1", &events.ScoreChangeProposed{Revision: 1, Criterion: "perf", From: ptr(6), To: 8,
				Rationale: events.Text{En: "because"}, Evidence: []string{"e2"}}))},
		{name: "an unscored criterion has no baseline", given: p1Draft(),
			when: proposeScore("alice", "support", 0, "e1", "e2"),
			want: changes(on("p1", &events.ScoreChangeProposed{Revision: 1, Criterion: "support", From: nil, To: 0,
				Rationale: events.Text{En: "because"}, Evidence: []string{"e1", "e2"}}))},
		{name: "re-proposing takes the newly published baseline",
			given: cat(p1Draft(), []given{edition2()}),
			when:  proposeScore("alice", "price", 7, "e1"),
			want: changes(on("p1", &events.ScoreChangeProposed{Revision: 1, Criterion: "price", From: ptr(6), To: 7,
				Rationale: events.Text{En: "because"}, Evidence: []string{"e1"}}))},
		{name: "uncited change", given: p1Draft(), when: proposeScore("alice", "perf", 8), err: domain.ErrUncitedChange},
		{name: "unknown evidence", given: p1Draft(), when: proposeScore("alice", "perf", 8, "e1", "e5"), err: domain.ErrUnknownEvidence},
		{name: "unknown criterion", given: p1Draft(), when: proposeScore("alice", "speed", 8, "e1"), err: domain.ErrInvalid},
		{name: "score above 10", given: p1Draft(), when: proposeScore("alice", "perf", 11, "e1"), err: domain.ErrInvalid},
		{name: "score below 0", given: p1Draft(), when: proposeScore("alice", "perf", -1, "e1"), err: domain.ErrInvalid},
		{name: "score change in review", given: p1InReview(), when: proposeScore("alice", "perf", 8, "e1"), err: domain.ErrNotDraft},
		{name: "score change by a non-author", given: p1Draft(), when: proposeScore("bob", "perf", 8, "e1"), err: domain.ErrNotAuthor},
		{name: "score change by a reviewer", given: p1Draft(), when: proposeScore("rita", "perf", 8, "e1"), err: domain.ErrRoleRequired},

		// attribute changes
		{name: "attribute tags are sorted, baseline is the published tags", given: p1Draft(),
			when: proposeAttr("alice", "root", []string{"yes", "no"}, "e2"),
			want: changes(on("p1", &events.AttributeChangeProposed{Revision: 1, Attribute: "root", From: []string{"yes"},
				To: []string{"no", "yes"}, Rationale: events.Text{En: "because"}, Evidence: []string{"e2"}}))},
		{name: "free-text attribute", given: p1Draft(),
			when: proposeAttr("alice", "region", []string{"cn-east"}, "e2"),
			want: changes(on("p1", &events.AttributeChangeProposed{Revision: 1, Attribute: "region", From: nil,
				To: []string{"cn-east"}, Rationale: events.Text{En: "because"}, Evidence: []string{"e2"}}))},
		{name: "unknown attribute value", given: p1Draft(), when: proposeAttr("alice", "root", []string{"maybe"}, "e2"), err: domain.ErrInvalid},
		{name: "unknown attribute", given: p1Draft(), when: proposeAttr("alice", "gpu", []string{"a100"}, "e2"), err: domain.ErrInvalid},
		{name: "repeated tag", given: p1Draft(), when: proposeAttr("alice", "region", []string{"eu", "eu"}, "e2"), err: domain.ErrInvalid},
		{name: "uncited attribute change", given: p1Draft(), when: proposeAttr("alice", "root", []string{"no"}), err: domain.ErrUncitedChange},

		// removing a change
		{name: "remove a change", given: p1Draft(),
			when: func(w *world) ([]domain.Change, error) {
				return domain.DecideRemoveChange(w.prop("p1"), actor("alice"), "score:price")
			},
			want: changes(on("p1", &events.ChangeRemoved{Revision: 1, Target: "score:price"}))},
		{name: "remove a change that is not there", given: p1Draft(),
			when: func(w *world) ([]domain.Change, error) {
				return domain.DecideRemoveChange(w.prop("p1"), actor("alice"), "attr:root")
			},
			err: domain.ErrInvalid},
	})
}

func TestDecideSubmitAndRevise(t *testing.T) {
	empty := cat(defined(), []given{opened("p1", "alice", "acme"), evidence("p1", "alice", "e1", 1)})
	runDecide(t, []decideTest{
		{name: "submit", given: p1Draft(), when: submit("alice"),
			want: changes(on("p1", &events.ProposalSubmitted{Revision: 1}))},
		{name: "submit with no change", given: empty, when: submit("alice"), err: domain.ErrNothingToSubmit},
		{name: "submit after the only change was removed",
			given: cat(p1Draft(), []given{{"alice", domain.ProposalID("p1"), &events.ChangeRemoved{Revision: 1, Target: "score:price"}}}),
			when:  submit("alice"), err: domain.ErrNothingToSubmit},
		{name: "submit twice", given: p1InReview(), when: submit("alice"), err: domain.ErrNotDraft},
		{name: "submit by a non-author", given: p1Draft(), when: submit("bob"), err: domain.ErrNotAuthor},
		{name: "submit by a reviewer", given: p1Draft(), when: submit("rita"), err: domain.ErrRoleRequired},
		{name: "submit a draft whose baseline was published over",
			given: cat(p1Draft(), []given{edition2()}), when: submit("alice"), err: domain.ErrStaleBaseline},
		{name: "submit after re-proposing on the new baseline",
			given: cat(p1Draft(), []given{edition2(), score("p1", "alice", 1, "price", ptr(6), 7, "e1")}),
			when:  submit("alice"), want: changes(on("p1", &events.ProposalSubmitted{Revision: 1}))},
		{name: "submit a withdrawn proposal",
			given: cat(p1Draft(), []given{closedBy("p1", "alice", &events.ProposalWithdrawn{})}),
			when:  submit("alice"), err: domain.ErrClosed},

		{name: "revise in review", given: p1InReview(), when: revise("alice"),
			want: changes(on("p1", &events.ProposalRevised{Revision: 2}))},
		{name: "revise a cross-validated proposal", given: p1Validated(), when: revise("bob"),
			want: changes(on("p1", &events.ProposalRevised{Revision: 2}))},
		{name: "revise rebases a change published over",
			given: cat(p1Validated(), []given{edition2()}), when: revise("alice"),
			want: changes(on("p1", &events.ProposalRevised{Revision: 2,
				Rebase: []events.Rebase{{Target: "score:price", Score: ptr(6)}}}))},
		{name: "revise a draft", given: p1Draft(), when: revise("alice"), err: domain.ErrState},
		{name: "revise a published proposal",
			given: cat(p1Validated(), []given{closedBy("p1", "pat", &events.ProposalPublished{Edition: 2, Revision: 1})}),
			when:  revise("alice"), err: domain.ErrClosed},
		{name: "revise by a reviewer", given: p1InReview(), when: revise("rita"), err: domain.ErrRoleRequired},
		{name: "revise by a publisher", given: p1InReview(), when: revise("pat"), err: domain.ErrRoleRequired},
		{name: "revise a missing proposal", given: defined(), when: revise("alice"), err: domain.ErrProposalMissing},
	})
}

func TestDecideWithdrawAndReject(t *testing.T) {
	runDecide(t, []decideTest{
		{name: "withdraw a draft", given: p1Draft(), when: withdraw("alice"),
			want: changes(on("p1", &events.ProposalWithdrawn{}))},
		{name: "withdraw in review", given: p1InReview(), when: withdraw("alice"),
			want: changes(on("p1", &events.ProposalWithdrawn{}))},
		{name: "withdraw by a non-author", given: p1InReview(), when: withdraw("bob"), err: domain.ErrNotAuthor},
		{name: "withdraw by a reviser", given: cat(p1InReview(), []given{revised("p1", "bob", 2)}),
			when: withdraw("bob"), err: domain.ErrNotAuthor},
		{name: "withdraw by a publisher", given: p1InReview(), when: withdraw("pat"), err: domain.ErrRoleRequired},
		{name: "withdraw by a publisher who also edits", given: p1InReview(), when: withdraw("paula"), err: domain.ErrNotAuthor},
		{name: "withdraw after cross-validation", given: p1Validated(), when: withdraw("alice"), err: domain.ErrState},
		{name: "withdraw twice",
			given: cat(p1Draft(), []given{closedBy("p1", "alice", &events.ProposalWithdrawn{})}),
			when:  withdraw("alice"), err: domain.ErrState},
		{name: "withdraw by an author who lost the editor role",
			given: p1Draft(),
			when: func(w *world) ([]domain.Change, error) {
				return domain.DecideWithdraw(w.prop("p1"), domain.Actor{Name: "alice", Roles: []string{domain.RoleReviewer}}, "")
			}, err: domain.ErrRoleRequired},

		{name: "publisher rejects", given: p1InReview(), when: rejectProposal("pat"),
			want: changes(on("p1", &events.ProposalRejected{Reason: "out of scope"}))},
		{name: "publisher rejects a cross-validated proposal", given: p1Validated(), when: rejectProposal("pat"),
			want: changes(on("p1", &events.ProposalRejected{Reason: "out of scope"}))},
		{name: "editor cannot reject", given: p1InReview(), when: rejectProposal("bob"), err: domain.ErrRoleRequired},
		{name: "reviewer cannot reject", given: p1InReview(), when: rejectProposal("rita"), err: domain.ErrRoleRequired},
		{name: "publisher who wrote it cannot reject it",
			given: cat(defined(), []given{opened("p1", "paula", "acme")}),
			when:  rejectProposal("paula"), err: domain.ErrSelfPublish},
		{name: "reject a closed proposal",
			given: cat(p1InReview(), []given{closedBy("p1", "alice", &events.ProposalWithdrawn{})}),
			when:  rejectProposal("pat"), err: domain.ErrClosed},
		{name: "reject needs a reason", given: p1InReview(),
			when: func(w *world) ([]domain.Change, error) { return domain.DecideReject(w.prop("p1"), actor("pat"), "") },
			err:  domain.ErrInvalid},
	})
}

// TestProposalLifecycle walks one proposal through every status with the
// decisions' own events, checking the state after each step.
func TestProposalLifecycle(t *testing.T) {
	w := newWorld(t, defined())
	step := func(who string, cs []domain.Change, err error, want domain.Status) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", who, err)
		}
		w.applyChanges(who, cs)
		if got := w.prop("p1").Status; got != want {
			t.Fatalf("after %s's command status = %s, want %s", who, got, want)
		}
	}
	cs, err := domain.DecideOpenProposal(w.ranking, w.entry("acme"), w.edition, w.prop("p1"), actor("alice"),
		domain.OpenProposal{ID: "p1", Ranking: rk, Entry: "acme", Title: "Acme"})
	step("alice", cs, err, domain.StatusDraft)
	cs, err = addEvidence("alice")(w)
	step("alice", cs, err, domain.StatusDraft)
	cs, err = proposeScore("alice", "price", 8, "e1")(w)
	step("alice", cs, err, domain.StatusDraft)
	cs, err = submit("alice")(w)
	step("alice", cs, err, domain.StatusInReview)
	cs, err = castVote("rita", "p1", 1, reject)(w)
	step("rita", cs, err, domain.StatusInReview)
	cs, err = revise("bob")(w)
	step("bob", cs, err, domain.StatusDraft)
	if got := w.prop("p1"); got.Revision != 2 || !reflect.DeepEqual(got.Revisers, []string{"bob"}) || !got.CanEdit("bob") || got.CanVote("bob") {
		t.Fatalf("after bob's revision: revision %d, revisers %v", got.Revision, got.Revisers)
	}
	cs, err = submit("bob")(w)
	step("bob", cs, err, domain.StatusInReview)
	cs, err = castVote("ravi", "p1", 2, approve, "e1")(w)
	step("ravi", cs, err, domain.StatusInReview)
	cs, err = castVote("rosa", "p1", 2, approve, "e1")(w)
	step("rosa", cs, err, domain.StatusInReview) // rita's veto carried over
	cs, err = castVote("rita", "p1", 2, approve, "e1")(w)
	step("rita", cs, err, domain.StatusCrossValidated)
	if got := w.prop("p1").CrossValidatedRevision; got != 2 {
		t.Errorf("CrossValidatedRevision = %d, want 2", got)
	}
	cs, err = castVote("rosa", "p1", 2, reject)(w)
	step("rosa", cs, err, domain.StatusInReview)
	cs, err = dismissVeto("pat", "rosa", "outvoted on a misreading")(w)
	step("pat", cs, err, domain.StatusCrossValidated)
	pv, err := domain.Preview(w.ranking, w.edition, []*domain.Proposal{w.prop("p1")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err = domain.DecidePublish(w.ranking, w.edition, []*domain.Proposal{w.prop("p1")}, nil, nil, actor("pat"),
		domain.PublishEdition{Ranking: rk, Proposals: []string{"p1"}, PreviewHash: pv.Hash})
	step("pat", cs, err, domain.StatusPublished)
	if got := w.edition.Entry("acme").Scores["price"]; got != 8 || w.edition.Number != 2 || w.prop("p1").Edition != 2 {
		t.Errorf("after publishing: acme price %d, edition %d, proposal edition %d; want 8, 2, 2", got, w.edition.Number, w.prop("p1").Edition)
	}
	if _, err := withdraw("alice")(w); err == nil || !strings.Contains(err.Error(), "withdrawn") {
		t.Errorf("withdrawing a published proposal: %v", err)
	}
}

func TestEvidenceStale(t *testing.T) {
	ev := func(observed string, days int) domain.Evidence {
		return domain.Evidence{EvidenceAdded: events.EvidenceAdded{ObservedOn: observed, ValidForDays: days}}
	}
	at := func(s string) time.Time {
		tm, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return tm
	}
	tests := []struct {
		name string
		e    domain.Evidence
		now  time.Time
		want bool
	}{
		{"never expires", ev("2020-01-01", 0), at("2030-01-01T00:00:00Z"), false},
		{"within validity", ev("2026-01-01", 30), at("2026-01-30T23:59:59Z"), false},
		{"at the end of validity", ev("2026-01-01", 30), at("2026-01-31T00:00:00Z"), false},
		{"past validity", ev("2026-01-01", 30), at("2026-01-31T00:00:01Z"), true},
		{"a year later", ev("2026-01-01", 365), at("2027-01-02T00:00:00Z"), true},
		{"unparseable date is never stale", ev("someday", 1), at("2030-01-01T00:00:00Z"), false},
	}
	for _, tt := range tests {
		if got := tt.e.Stale(tt.now); got != tt.want {
			t.Errorf("%s: Stale = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestStaleTargets: a change is stale when the published value moved away
// from its baseline, for scores and for tags (in any order).
func TestStaleTargets(t *testing.T) {
	w := newWorld(t, p1Draft(), []given{
		{"alice", domain.ProposalID("p1"), &events.AttributeChangeProposed{Revision: 1, Attribute: "root",
			From: []string{"yes"}, To: []string{"no"}, Rationale: events.Text{En: "r"}, Evidence: []string{"e2"}}},
		{"alice", domain.ProposalID("p1"), &events.AttributeChangeProposed{Revision: 1, Attribute: "region",
			To: []string{"eu-west"}, Rationale: events.Text{En: "r"}, Evidence: []string{"e2"}}},
	})
	if got := w.prop("p1").StaleTargets(w.edition); len(got) != 0 {
		t.Fatalf("fresh proposal has stale targets %v", got)
	}
	w.apply("pat", domain.EditionID(rk), &events.EditionPublished{Ranking: rk, Number: 2, Changes: []events.AppliedChange{
		{Entry: "acme", Target: "attr:region", ToTags: []string{"us-west"}},
		{Entry: "acme", Target: "score:perf", ToScore: ptr(2)}, // not a target of p1
	}})
	if got, want := w.prop("p1").StaleTargets(w.edition), []string{"attr:region"}; !reflect.DeepEqual(got, want) {
		t.Errorf("StaleTargets = %v, want %v", got, want)
	}
	w.apply("pat", domain.EditionID(rk), &events.EditionPublished{Ranking: rk, Number: 3, Changes: []events.AppliedChange{
		{Entry: "acme", Target: "score:price"}, // price unpublished: the baseline 5 is gone
		{Entry: "acme", Target: "attr:root", ToTags: []string{"yes"}},
	}})
	if got, want := w.prop("p1").StaleTargets(w.edition), []string{"attr:region", "score:price"}; !reflect.DeepEqual(got, want) {
		t.Errorf("StaleTargets = %v, want %v", got, want)
	}
}

// TestEvolveFoldedTransition: a vote or dismissed veto carrying the
// proposal's change of status (events.Transition), and a ProposalOpened
// carrying its methodology, evolve the proposal exactly as the two events
// of older histories do.
func TestEvolveFoldedTransition(t *testing.T) {
	approved := cat(p1InReview(), []given{voted("p1", "rita", 1, approve, "e1", "e2")})
	validatedBy := cat(approved, []given{voted("p1", "ravi", 1, approve, "e1", "e2"), validated("p1", 1, "ravi", "rita")})
	vetoed := cat(approved, []given{voted("p1", "rosa", 1, reject), voted("p1", "ravi", 1, approve, "e1", "e2")})
	opened := given{"alice", domain.ProposalID("m1"), &events.ProposalOpened{Ranking: rk, Title: "Weigh price more", Methodology: true}}
	proposed := &events.MethodologyProposed{Revision: 1, Base: 0, Rationale: events.Text{En: "price decides"},
		Methodology: events.Methodology{Title: events.Text{En: "GPU clouds"}, Quorum: events.QuorumPolicy{MinApprovals: 2}}}
	withProposed := *opened.data.(*events.ProposalOpened)
	withProposed.Proposed = proposed
	for _, tt := range []struct {
		name        string
		id          string
		given       []given
		two         []given // the older histories' two events
		one         given   // the one event carrying both
		wantStatus  domain.Status
		wantRevised int
	}{
		{"a vote completes the quorum", "p1", approved,
			[]given{voted("p1", "ravi", 1, approve, "e1", "e2"), validated("p1", 1, "ravi", "rita")},
			carried(voted("p1", "ravi", 1, approve, "e1", "e2"), crossValidated(1, "ravi", "rita")),
			domain.StatusCrossValidated, 1},
		{"a veto returns a cross-validated proposal to review", "p1", validatedBy,
			[]given{voted("p1", "rosa", 1, reject), {"rosa", domain.ProposalID("p1"), &events.ProposalReturnedToReview{Reason: "veto"}}},
			carried(voted("p1", "rosa", 1, reject), returnedForVeto()),
			domain.StatusInReview, 0},
		{"a dismissed veto completes the quorum", "p1", vetoed,
			[]given{dismissed("p1", "pia", "rosa"), validated("p1", 1, "ravi", "rita")},
			carried(dismissed("p1", "pia", "rosa"), crossValidated(1, "ravi", "rita")),
			domain.StatusCrossValidated, 1},
		{"a methodology proposal opened with its methodology", "m1", nil,
			[]given{opened, {"alice", domain.ProposalID("m1"), proposed}},
			given{"alice", domain.ProposalID("m1"), &withProposed},
			domain.StatusDraft, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			two := newWorld(t, tt.given, tt.two).prop(tt.id)
			one := newWorld(t, tt.given, []given{tt.one}).prop(tt.id)
			if one.Status != tt.wantStatus || one.CrossValidatedRevision != tt.wantRevised {
				t.Errorf("status %s at revision %d, want %s at %d", one.Status, one.CrossValidatedRevision, tt.wantStatus, tt.wantRevised)
			}
			// The one event's time and sequence are the first of the two's.
			two.Seq = one.Seq
			if !reflect.DeepEqual(one, two) {
				t.Errorf("one event evolves\n%+v\ntwo events evolve\n%+v", one, two)
			}
		})
	}
}

// carried returns g, a vote or dismissed veto, carrying transition tr.
func carried(g given, tr events.Transition) given {
	g.data = carrying(domain.Change{Aggregate: g.agg, Data: g.data}, tr).Data
	return g
}
