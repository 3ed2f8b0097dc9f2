package projections_test

import (
	"strings"
	"testing"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/projections"
)

// TestIndependentStanding: on the demo, the independent view drops the
// scores resting on vendor claims only (qingcloud's GPU range), keeps those
// an article report also backs (zhixingyun's), and its hash is the one the
// domain computes from the events themselves: the published changes, and
// the tiers of the evidence items each one cites.
func TestIndependentStanding(t *testing.T) {
	h, ps, env := seededDesk(t)
	ctx := testContext(t)
	v, err := ps.IndependentStanding(ctx, demo.RankingSlug, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	full, err := ps.Standing(ctx, demo.RankingSlug, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	scores := func(rows []projections.StandingRow, slug string) map[string]int {
		for _, r := range rows {
			if r.Slug == slug {
				return r.Scores
			}
		}
		t.Fatalf("no row %s", slug)
		return nil
	}
	if _, ok := scores(v.Rows, "qingcloud")[demo.CritGPUs]; ok {
		t.Error("qingcloud's GPU score rests on a vendor claim only, yet the independent view counts it")
	}
	if _, ok := scores(full.Rows, "qingcloud")[demo.CritGPUs]; !ok {
		t.Fatal("the published ranking has no GPU score for qingcloud: the test's premise is gone")
	}
	if got, want := scores(v.Rows, "zhixingyun")[demo.CritGPUs], scores(full.Rows, "zhixingyun")[demo.CritGPUs]; got != want {
		t.Errorf("zhixingyun's GPU score %d in the independent view, want the published %d", got, want)
	}

	// The same view from the events, through the domain alone.
	backing := domain.ScoreBacking{}
	for _, ev := range replayAll(t, env.Store) {
		d, ok := ev.Data.(*events.EditionPublished)
		if !ok || d.Ranking != demo.RankingSlug {
			continue
		}
		for _, c := range d.Changes {
			crit, ok := strings.CutPrefix(c.Target, "score:")
			if !ok {
				continue
			}
			p, err := h.Proposal(ctx, c.Proposal)
			if err != nil {
				t.Fatal(err)
			}
			var tiers []domain.Tier
			for _, id := range c.Evidence {
				e, _ := p.EvidenceByID(id)
				tiers = append(tiers, domain.Tier(e.Tier))
			}
			if backing[c.Entry] == nil {
				backing[c.Entry] = map[string][]domain.Tier{}
			}
			backing[c.Entry][crit] = tiers
		}
	}
	r, err := h.Ranking(ctx, demo.RankingSlug)
	if err != nil {
		t.Fatal(err)
	}
	ed, err := h.Edition(ctx, demo.RankingSlug)
	if err != nil {
		t.Fatal(err)
	}
	if want := domain.BuildIndependentSnapshot(r, ed, backing).Hash(); v.Hash != want {
		t.Errorf("hash %s, want %s from the events", v.Hash, want)
	}
	if v.Hash == domain.BuildSnapshot(r, ed).Hash() {
		t.Error("the independent view has the published edition's hash")
	}
}
