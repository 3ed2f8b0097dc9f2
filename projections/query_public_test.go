package projections_test

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/events/jetstream/jstest"
	"github.com/crossrank/crossrank/projections"
)

// publicDemo seeds the demo ranking (edition 1) into a real store with the
// runner keeping the read models current.
func publicDemo(t *testing.T) (context.Context, *handler.Handler, *projections.Store, func() uint64) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	env := jstest.Start(t)
	ps, err := projections.Open(filepath.Join(t.TempDir(), "read.db"))
	if err != nil {
		t.Fatal(err)
	}
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); _ = ps.Run(runCtx, env.Store, nil) }()
	t.Cleanup(func() { stop(); <-done; ps.Close() })
	h := handler.New(env.Store, nil)
	hash := func(string) (string, error) { return "$argon2id$v=19$m=8,t=1,p=1$c2FsdA$aGFzaA", nil }
	if _, err := demo.Seed(ctx, h, demo.Options{Password: "pw", HashPassword: hash, Now: time.Now(),
		AuditHead: ps.AuditHead, CrossValidated: ps.CrossValidated}); err != nil {
		t.Fatal(err)
	}
	caughtUp := func() uint64 {
		t.Helper()
		last, err := env.Store.LastSequence(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if err := ps.WaitFor(ctx, last); err != nil {
			t.Fatal(err)
		}
		return last
	}
	caughtUp()
	return ctx, h, ps, caughtUp
}

func TestEditionMarkAndChangelog(t *testing.T) {
	ctx, h, ps, caughtUp := publicDemo(t)
	m1, err := ps.EditionMark(ctx, demo.RankingSlug)
	if err != nil || m1.Edition != 1 || m1.Seq == 0 || m1.PublishedAt == "" || m1.DefSeq == 0 {
		t.Fatalf("mark after the seed: %+v, %v", m1, err)
	}
	all1, _ := ps.EditionMark(ctx, "")
	if all1.Edition != 1 || all1.Seq != m1.Seq {
		t.Errorf("mark of all rankings %+v, want one edition at %d", all1, m1.Seq)
	}
	if _, err := ps.EditionMark(ctx, "nope"); err == nil {
		t.Error("mark of an unknown ranking: no error")
	}

	// A vote commits to the read models but leaves the mark alone.
	p, _ := h.Proposal(ctx, "demo-huawei-cloud-2")
	var ids []string
	for _, e := range p.Evidence {
		ids = append(ids, e.EvidenceID)
	}
	reviewer := domain.Actor{Name: "reviewer2", Roles: []string{domain.RoleReviewer}}
	if _, err := h.CastVote(ctx, reviewer, domain.CastVote{CommandID: events.NewID(time.Now()), Proposal: p.ID, Revision: p.Revision,
		Verdict: events.Approve, VerifiedEvidence: ids}); err != nil {
		t.Fatal(err)
	}
	caughtUp()
	if m, _ := ps.EditionMark(ctx, demo.RankingSlug); m != m1 {
		t.Errorf("a vote changed the mark: %+v → %+v", m1, m)
	}
	if eds, _ := ps.EditionsSince(ctx, m1.Seq); len(eds) != 0 {
		t.Errorf("editions since the last: %v", eds)
	}

	// Publish Qingjiao's onboarding score (6): 190 → 250 points, past Matpool (220).
	pv, _, err := h.PreviewEdition(ctx, demo.RankingSlug, []string{"demo-qingjiao-2"})
	if err != nil {
		t.Fatal(err)
	}
	head, seq, _ := ps.AuditHead(ctx)
	publisher := domain.Actor{Name: "publisher", Roles: []string{domain.RolePublisher}}
	if _, err := h.Publish(ctx, publisher, domain.PublishEdition{CommandID: events.NewID(time.Now()), Ranking: demo.RankingSlug,
		Proposals: []string{"demo-qingjiao-2"}, PreviewHash: pv.Hash, AuditHead: head, AuditSeq: seq}); err != nil {
		t.Fatal(err)
	}
	caughtUp()
	m2, _ := ps.EditionMark(ctx, demo.RankingSlug)
	if m2.Edition != 2 || m2.Seq <= m1.Seq || m2.Key() == m1.Key() {
		t.Errorf("mark after edition 2: %+v (before %+v)", m2, m1)
	}
	eds, err := ps.EditionsSince(ctx, m1.Seq)
	if err != nil || len(eds) != 1 || eds[0].Number != 2 || eds[0].Seq != m2.Seq {
		t.Fatalf("editions since edition 1: %+v, %v", eds, err)
	}

	d, err := ps.Edition(ctx, demo.RankingSlug, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Changes) != 1 {
		t.Fatalf("edition 2 changes: %+v", d.Changes)
	}
	c := d.Changes[0]
	if c.Entry != "qingjiao" || c.Target != "score:"+demo.CritOnboarding || c.FromScore != nil || c.ToScore == nil || *c.ToScore != 6 ||
		c.Kind() != "score" || c.Key() != demo.CritOnboarding || len(c.Evidence) == 0 || c.Evidence[0].Claim == (events.Text{}) || c.EntryName.En != "Qingjiao Cloud" {
		t.Errorf("change: %+v", c)
	}
	ranks := map[string][2]int{}
	for _, m := range d.Moves {
		delta, ok := m.Delta()
		if !ok {
			t.Errorf("%s is new in edition 2", m.Entry)
		}
		ranks[m.Entry] = [2]int{m.After, delta}
	}
	if ranks["qingjiao"] != [2]int{8, 1} || ranks["matpool"] != [2]int{9, -1} || ranks["zhixingyun"] != [2]int{1, 0} {
		t.Errorf("moves: %v", ranks)
	}
	d1, _ := ps.Edition(ctx, demo.RankingSlug, 1)
	if len(d1.Moves) != 9 || slices.ContainsFunc(d1.Moves, func(m projections.EditionMove) bool { return m.Before != nil }) {
		t.Errorf("edition 1 moves should all be new: %+v", d1.Moves)
	}
	if _, err := ps.Edition(ctx, demo.RankingSlug, 3); err == nil {
		t.Error("edition 3: no error")
	}
	// Under the training weights onboarding counts 5%: Qingjiao goes from
	// 105 to 135 points, still behind Matpool (140), so that order holds.
	sc, err := ps.Moves(ctx, demo.RankingSlug, 2, "scenario:training")
	if err != nil || len(sc) != 9 {
		t.Fatalf("scenario moves: %v %v", sc, err)
	}
	for _, m := range sc {
		if d, _ := m.Delta(); d != 0 {
			t.Errorf("training order changed for %s by %d", m.Entry, d)
		}
	}
}
