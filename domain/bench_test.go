package domain_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// BenchmarkDecideCastVote: the vote that completes the quorum, the busiest
// decision (it evaluates the quorum on the state after the vote).
func BenchmarkDecideCastVote(b *testing.B) {
	w := newWorld(b, p1InReview(), []given{voted("p1", "rita", 1, approve, "e1", "e2")})
	p := w.prop("p1")
	c := domain.CastVote{Proposal: "p1", Revision: 1, Verdict: approve, VerifiedEvidence: []string{"e1", "e2"}}
	b.ReportAllocs()
	for b.Loop() {
		cs, err := domain.DecideCastVote(w.ranking, w.edition, p, actor("ravi"), c)
		if err != nil || len(cs) != 1 || cs[0].Data.(*events.VoteCast).CrossValidated == nil {
			b.Fatal(cs, err)
		}
	}
}

// thousandEntries is a published edition of 1000 entries scored on five
// criteria, with two attributes each.
func thousandEntries() (*domain.Ranking, *domain.Edition) {
	rng := rand.New(rand.NewPCG(1, 2))
	crit := []string{"price", "perf", "support", "network", "storage"}
	r := &domain.Ranking{Slug: rk}
	for i, c := range crit {
		r.Criteria = append(r.Criteria, events.Criterion{Slug: c, Weight: []int{30, 25, 20, 15, 10}[i]})
	}
	for _, s := range []string{"training", "inference", "budget"} {
		w := map[string]int{}
		for i, v := range splitHundred(rng, len(crit)) {
			w[crit[i]] = v
		}
		r.Scenarios = append(r.Scenarios, events.Scenario{Slug: s, Weights: w})
	}
	ed := &domain.Edition{Ranking: rk, Number: 7, Entries: map[string]*domain.PublishedEntry{}}
	for i := range 1000 {
		slug := fmt.Sprintf("entry-%04d", i)
		scores := map[string]int{}
		for _, c := range crit {
			scores[c] = rng.IntN(11)
		}
		ed.Entries[slug] = &domain.PublishedEntry{Slug: slug, Name: events.Text{En: slug, Zh: slug}, Category: []string{"cloud", "market", "paas"}[i%3],
			Scores: scores, Attributes: map[string][]string{"region": {"eu-west", "cn-east"}, "root": {"yes"}}}
	}
	return r, ed
}

func BenchmarkStandings(b *testing.B) {
	r, ed := thousandEntries()
	w := r.Weights()
	b.ReportAllocs()
	for b.Loop() {
		if got := domain.Standings(ed.Entries, w); len(got) != 1000 {
			b.Fatal(len(got))
		}
	}
}

// BenchmarkSnapshotHash: what the preview, the publish and `crossrank
// verify` compute per edition: the canonical snapshot (overall and three
// scenario orders) and its SHA-256.
func BenchmarkSnapshotHash(b *testing.B) {
	r, ed := thousandEntries()
	b.ReportAllocs()
	for b.Loop() {
		if h := domain.BuildSnapshot(r, ed).Hash(); len(h) != 64 {
			b.Fatal(h)
		}
	}
}
