package history

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// desk is one synthetic ranking and where its proposals stand between
// editions.
type desk struct {
	slug     string
	entries  []string
	created  map[string]bool // entry registered
	orphan   map[string]bool // registered, but its new-entry proposal closed: never publishable
	held     []string        // cross-validated, kept out of the last edition
	ready    []string        // cross-validated, for the next edition
	returned []string        // returned to review by the last edition
	opened   int
}

const (
	rankingEntries = 60
	criteria       = 8
)

var baseWeights = []int{20, 15, 15, 10, 10, 10, 10, 10}

// world registers the users and defines the rankings.
func (s *generator) world() error {
	if err := s.users(); err != nil {
		return err
	}
	sys := domain.System()
	for i := 1; i <= 3; i++ {
		d := &desk{slug: fmt.Sprintf("%s-r%d", s.prefix, i), created: map[string]bool{}, orphan: map[string]bool{}}
		for j := 1; j <= rankingEntries; j++ {
			d.entries = append(d.entries, fmt.Sprintf("e%02d", j))
		}
		if err := s.As(sys)(Legacy(d.slug, s.definition(d.slug, i))); err != nil {
			return err
		}
		if err := s.As(sys)(Legacy(d.slug, s.scenarios(0))); err != nil {
			return err
		}
		s.desks = append(s.desks, d)
	}
	return nil
}

func text(en string) events.Text { return events.Text{Zh: "（中）" + en, En: en} }

func (s *generator) definition(slug string, i int) events.RankingDefined {
	d := events.RankingDefined{Slug: slug, Title: text(fmt.Sprintf("Synthetic ranking %d", i)),
		Description: text("Generated for benchmarks and tests."),
		Quorum:      events.QuorumPolicy{MinApprovals: 2, RequireEvidenceVerified: true}}
	for k := 1; k <= 4; k++ {
		d.Categories = append(d.Categories, events.Category{Slug: fmt.Sprintf("k%d", k), Name: text(fmt.Sprintf("Category %d", k))})
	}
	for c := 1; c <= criteria; c++ {
		d.Criteria = append(d.Criteria, events.Criterion{Slug: fmt.Sprintf("c%d", c), Name: text(fmt.Sprintf("Criterion %d", c)),
			Description: text("How well the entry does on this."), Weight: baseWeights[c-1]})
	}
	var region, access []events.AttributeValue
	for _, v := range []string{"cn-north", "cn-east", "cn-south", "overseas"} {
		region = append(region, events.AttributeValue{Value: v, Label: text(v)})
	}
	for _, v := range []string{"root", "container", "notebook"} {
		access = append(access, events.AttributeValue{Value: v, Label: text(v)})
	}
	d.Attributes = []events.AttributeDef{{Key: "region", Name: text("Region"), Values: region},
		{Key: "access", Name: text("Access"), Values: access}}
	return d
}

// weights returns the criteria weights rotated by shift.
func weights(shift int) map[string]int {
	w := map[string]int{}
	for c := range criteria {
		w[fmt.Sprintf("c%d", c+1)] = baseWeights[(c+shift)%criteria]
	}
	return w
}

func (s *generator) scenarios(shift int) events.ScenariosSet {
	var sc events.ScenariosSet
	for i := 1; i <= 3; i++ {
		sc.Scenarios = append(sc.Scenarios, events.Scenario{Slug: fmt.Sprintf("sc%d", i),
			Name: text(fmt.Sprintf("Scenario %d", i)), Weights: weights(shift + 2*i)})
	}
	f := events.Filter{Key: "where", Question: text("Where must the data stay?")}
	for _, v := range []string{"cn-north", "overseas"} {
		f.Options = append(f.Options, events.FilterOption{Value: v, Label: text(v), Requires: []events.Requirement{
			{Attribute: "region", AnyOf: []string{v}, Reason: text("Not offered in " + v)}}})
	}
	sc.Filters = []events.Filter{f}
	return sc
}

// wave reworks the proposals the last edition returned to review, opens
// proposals on free entries (and one against each held-back proposal's
// value), reviews them and publishes the next edition.
func (s *generator) wave(d *desk) error {
	var chosen []string
	busy := map[string]bool{}
	for _, id := range d.returned {
		if err := s.rework(d, id); err != nil {
			return err
		}
	}
	for _, id := range slices.Concat(d.returned, d.ready, d.held) {
		busy[s.Proposal(id).Entry] = true
	}
	chosen = slices.Concat(d.returned, d.ready)
	for _, id := range d.held {
		p := s.Proposal(id)
		if id, err := s.propose(d, p.Entry, scored(p)[0]); err != nil {
			return err
		} else if id != "" {
			chosen = append(chosen, id)
		}
	}
	for _, e := range s.picks(d, busy, 8+s.Rng.IntN(13)) {
		if id, err := s.propose(d, e, ""); err != nil {
			return err
		} else if id != "" {
			chosen = append(chosen, id)
		}
	}
	// Hold one proposal back now and then; next wave a competing proposal
	// on its value is published and returns it to review. Never one on the
	// entry of a proposal held last time, which may stay in play.
	others := d.held
	d.held = nil
	if i := s.Rng.IntN(len(chosen) + 1); i < len(chosen) && s.Rng.IntN(2) == 0 {
		p := s.Proposal(chosen[i])
		inPlay := slices.ContainsFunc(others, func(id string) bool { return s.Proposal(id).Entry == p.Entry })
		if !p.NewEntry && len(scored(p)) > 0 && !inPlay {
			d.held = []string{chosen[i]}
			chosen = slices.Delete(chosen, i, i+1)
		}
	}
	if len(chosen) > 0 {
		if err := s.publish(d, chosen, others); err != nil {
			return err
		}
	}
	d.returned, d.ready = nil, nil
	for _, id := range others {
		switch s.Proposal(id).Status {
		case domain.StatusInReview:
			d.returned = append(d.returned, id)
		case domain.StatusCrossValidated:
			d.ready = append(d.ready, id)
		}
	}
	return s.between(d)
}

// picks chooses up to n free entries: about half of them published ones
// (the desk revisits its entries), the rest new.
func (s *generator) picks(d *desk, busy map[string]bool, n int) []string {
	var known, fresh []string
	for _, e := range d.entries {
		switch {
		case busy[e] || d.orphan[e]:
		case d.created[e]:
			known = append(known, e)
		default:
			fresh = append(fresh, e)
		}
	}
	s.Rng.Shuffle(len(known), func(i, j int) { known[i], known[j] = known[j], known[i] })
	s.Rng.Shuffle(len(fresh), func(i, j int) { fresh[i], fresh[j] = fresh[j], fresh[i] })
	k := min(len(known), n/2)
	if len(fresh) < n-k {
		k = min(len(known), n-len(fresh))
	}
	return append(known[:k], fresh[:min(len(fresh), n-k)]...)
}

// scored returns the criteria a proposal changes, sorted.
func scored(p *domain.Proposal) []string {
	var out []string
	for _, t := range p.Targets() {
		if c, ok := strings.CutPrefix(t, "score:"); ok {
			out = append(out, c)
		}
	}
	return out
}

// between makes the changes a desk sees between editions: weights,
// scenarios, accounts.
func (s *generator) between(d *desk) error {
	pub := s.Actor(s.pick(s.publishers))
	switch x := s.Rng.IntN(40); {
	case x < 2:
		if err := s.As(pub)(Legacy(d.slug, &events.WeightsSet{Weights: weights(s.Rng.IntN(criteria))})); err != nil {
			return err
		}
	case x < 3:
		if err := s.As(pub)(Legacy(d.slug, s.scenarios(s.Rng.IntN(criteria)))); err != nil {
			return err
		}
	}
	return s.accounts()
}

func (s *generator) publish(d *desk, chosen, others []string) error {
	r, ed := s.Ranking(d.slug), s.Edition(d.slug)
	var ps, os []*domain.Proposal
	entries := map[string]*domain.Entry{}
	for _, id := range chosen {
		p := s.Proposal(id)
		ps = append(ps, p)
		if p.NewEntry {
			entries[p.Entry] = s.Entry(d.slug, p.Entry)
		}
	}
	for _, id := range others {
		os = append(os, s.Proposal(id))
	}
	pv, err := domain.Preview(r, ed, ps, entries)
	if err != nil {
		return fmt.Errorf("synthetic history: preview: %w", err)
	}
	c := domain.PublishEdition{Ranking: d.slug, Proposals: pv.Proposals, PreviewHash: pv.Hash,
		Note: fmt.Sprintf("Edition %d of %s", pv.Number, d.slug)}
	if head, seq, ok := s.AuditHead(); ok {
		c.AuditHead, c.AuditSeq = head, seq
	}
	pub := s.Actor(s.pick(s.publishers))
	return s.As(pub)(domain.DecidePublish(r, ed, ps, entries, os, pub, c))
}

const excerpt = "The platform offers hourly billing on dedicated GPU servers, with container images " +
	"prepared for common frameworks, shared storage mounted across nodes, and support answering within " +
	"a working day; spot capacity is available in two regions and data can be kept between sessions."

// evidence adds one evidence item to the draft id as actor.
func (s *generator) evidence(id string, a domain.Actor) error {
	p := s.Proposal(id)
	n := p.EvidenceSeq + 1
	c := domain.AddEvidence{Proposal: id,
		Claim:        events.Text{En: fmt.Sprintf("Claim %d about %s", n, p.Entry)},
		SourceURL:    fmt.Sprintf("https://example.com/%s/%s/%d", p.Ranking, p.Entry, n),
		Section:      fmt.Sprintf("§%d", 1+s.Rng.IntN(12)),
		Excerpt:      excerpt[s.Rng.IntN(80):],
		ObservedOn:   s.Clock.AddDate(0, 0, -s.Rng.IntN(60)).Format(time.DateOnly),
		ValidForDays: []int{0, 90, 180, 365}[s.Rng.IntN(4)]}
	return s.As(a)(domain.DecideAddEvidence(p, a, c))
}

// cite picks one or two evidence ids of the proposal.
func (s *generator) cite(p *domain.Proposal) []string {
	ids := p.EvidenceIDs()
	i := s.Rng.IntN(len(ids))
	if j := s.Rng.IntN(len(ids)); j != i && s.Rng.IntN(2) == 0 {
		return []string{ids[i], ids[j]}
	}
	return []string{ids[i]}
}

func (s *generator) score(d *desk, id string, a domain.Actor, crit string) error {
	p := s.Proposal(id)
	c := domain.ProposeScore{Proposal: id, Criterion: crit, To: s.Rng.IntN(11),
		Rationale: events.Text{En: "Follows from the cited sources."}, Evidence: s.cite(p)}
	return s.As(a)(domain.DecideProposeScore(s.Ranking(d.slug), s.Edition(d.slug), p, a, c))
}

func (s *generator) vote(d *desk, id, reviewer, verdict string, verified []string) error {
	p, a := s.Proposal(id), s.Actor(reviewer)
	c := domain.CastVote{Proposal: id, Revision: p.Revision, Verdict: verdict, VerifiedEvidence: verified}
	if verdict == events.Reject {
		c.Comment = "The excerpt does not support this score."
	}
	return s.As(a)(domain.DecideCastVote(s.Ranking(d.slug), s.Edition(d.slug), p, a, c))
}

// Legacy yields one of the events rankings were defined and changed with
// before methodology went through review (RankingDefined, WeightsSet,
// ScenariosSet), on the ranking slug. Stores written then hold them and
// replay them as ever; the synthetic history keeps them, so its pinned
// digest and the benchmarks built on it stay comparable across versions.
func Legacy(slug string, data any) ([]domain.Change, error) {
	switch d := data.(type) {
	case events.RankingDefined:
		data = &d
	case events.ScenariosSet:
		data = &d
	}
	return []domain.Change{{Aggregate: domain.RankingID(slug), Data: data}}, nil
}
