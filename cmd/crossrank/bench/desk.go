package bench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/projections/history"
)

// deskSpec shapes a generated ranking for the web benchmarks:
// history.Generate spreads its history over three rankings of 60
// entries with a handful of evidence items each, so the large public page
// (1k entries, 100k evidence items) is generated here instead.
type deskSpec struct {
	slug       string
	entries    int // entries, each added by its own proposal
	evidence   int // evidence items per proposal (domain.MaxEvidence at most)
	perEdition int // proposals published per edition
	ready      int // extra new-entry proposals left cross-validated, unpublished
	seed       int64
}

// deskGen appends the events the desk's commands would append — each from
// the domain's own Decide function on a state the generator evolves — in
// atomic batches of about 100 with an expectation per aggregate, like
// history.Generate. The store must have no other writer.
type deskGen struct {
	*history.Writer

	editors, reviewers []string
	publisher          string
}

// generateDesk appends spec's ranking to store: users, the definition and
// scenarios, one proposal per entry with its evidence, scores and
// attributes, submitted and cross-validated by two reviewers who verified
// every item, published spec.perEdition at a time; then spec.ready more,
// cross-validated and left for a publisher.
func generateDesk(ctx context.Context, store events.Store, spec deskSpec) error {
	w, err := history.NewWriter(ctx, store, "bench desk", rand.New(rand.NewPCG(uint64(spec.seed), 0x6465736b)),
		time.Date(2026, 2, 2, 9, 0, 0, 0, time.UTC), 300)
	if err != nil {
		return err
	}
	g := &deskGen{Writer: w}
	if err := g.world(spec.slug); err != nil {
		return err
	}
	var pending []string
	for i := range spec.entries + spec.ready {
		id, err := g.propose(spec, i)
		if err != nil {
			return err
		}
		if i >= spec.entries {
			continue // ready: cross-validated, for the benchmark to publish
		}
		if pending = append(pending, id); len(pending) == spec.perEdition || i == spec.entries-1 {
			if err := g.publish(spec.slug, pending); err != nil {
				return err
			}
			pending = nil
		}
	}
	return g.Flush()
}

// deskReady returns the ids of the proposals generateDesk left
// cross-validated for spec, in order.
func deskReady(spec deskSpec) []string {
	var ids []string
	for i := spec.entries; i < spec.entries+spec.ready; i++ {
		ids = append(ids, deskProposal(spec.slug, i))
	}
	return ids
}

func deskProposal(slug string, i int) string { return fmt.Sprintf("%s-p%05d", slug, i) }

var deskCriteria = []int{20, 15, 15, 10, 10, 10, 10, 10}

func (g *deskGen) world(slug string) error {
	sys := domain.System()
	reg := func(name, role string) error {
		c := domain.RegisterUser{Username: name, DisplayName: name,
			PasswordHash: "$argon2id$v=19$m=65536,t=3,p=2$YmVuY2g$aGFzaA", Roles: []string{role}}
		return g.As(sys)(domain.DecideRegisterUser(g.User(name), sys, c))
	}
	for i := 1; i <= 4; i++ {
		g.editors = append(g.editors, fmt.Sprintf("%s-editor%d", slug, i))
	}
	for i := 1; i <= 3; i++ {
		g.reviewers = append(g.reviewers, fmt.Sprintf("%s-reviewer%d", slug, i))
	}
	g.publisher = slug + "-publisher"
	for _, n := range g.editors {
		if err := reg(n, domain.RoleEditor); err != nil {
			return err
		}
	}
	for _, n := range g.reviewers {
		if err := reg(n, domain.RoleReviewer); err != nil {
			return err
		}
	}
	if err := reg(g.publisher, domain.RolePublisher); err != nil {
		return err
	}
	txt := func(en string) events.Text { return events.Text{Zh: "（中）" + en, En: en} }
	d := events.RankingDefined{Slug: slug, Title: txt("GPU cloud platforms (benchmark)"),
		Description: txt("A generated ranking for the benchmarks."),
		Quorum:      events.QuorumPolicy{MinApprovals: 2, RequireEvidenceVerified: true}}
	for k := 1; k <= 4; k++ {
		d.Categories = append(d.Categories, events.Category{Slug: fmt.Sprintf("path%d", k), Name: txt(fmt.Sprintf("Delivery path %d", k))})
	}
	for c, w := range deskCriteria {
		d.Criteria = append(d.Criteria, events.Criterion{Slug: fmt.Sprintf("c%d", c+1), Name: txt(fmt.Sprintf("Criterion %d", c+1)),
			Description: txt("How well the platform does on this."), Weight: w})
	}
	var region, access []events.AttributeValue
	for _, v := range []string{"cn-north", "cn-east", "cn-south", "overseas"} {
		region = append(region, events.AttributeValue{Value: v, Label: txt(v)})
	}
	for _, v := range []string{"root", "container", "notebook"} {
		access = append(access, events.AttributeValue{Value: v, Label: txt(v)})
	}
	d.Attributes = []events.AttributeDef{{Key: "region", Name: txt("Region"), Values: region},
		{Key: "access", Name: txt("Access"), Values: access}}
	if err := g.As(sys)(history.Legacy(slug, d)); err != nil {
		return err
	}
	var sc events.ScenariosSet
	for i, name := range []string{"training", "inference", "budget"} {
		w := map[string]int{}
		for c := range deskCriteria {
			w[fmt.Sprintf("c%d", c+1)] = deskCriteria[(c+2*i+2)%len(deskCriteria)]
		}
		sc.Scenarios = append(sc.Scenarios, events.Scenario{Slug: name, Name: txt(name), Weights: w})
	}
	f := events.Filter{Key: "where", Question: txt("Where must the data stay?")}
	for _, v := range []string{"cn-north", "overseas"} {
		f.Options = append(f.Options, events.FilterOption{Value: v, Label: txt(v),
			Requires: []events.Requirement{{Attribute: "region", AnyOf: []string{v}, Reason: txt("Not offered in " + v)}}})
	}
	sc.Filters = []events.Filter{f}
	return g.As(sys)(history.Legacy(slug, sc))
}

const deskExcerpt = "The platform offers hourly billing on dedicated GPU servers, with container images " +
	"prepared for common frameworks, shared storage mounted across nodes, and support answering within " +
	"a working day; spot capacity is available in two regions and data can be kept between sessions."

// propose takes the i-th entry's proposal to cross-validated.
func (g *deskGen) propose(spec deskSpec, i int) (string, error) {
	slug, id, entry := spec.slug, deskProposal(spec.slug, i), fmt.Sprintf("platform-%05d", i)
	a := g.Actor(g.editors[i%len(g.editors)])
	r, ed := g.Ranking(slug), g.Edition(slug)
	open := domain.OpenProposal{ID: id, Ranking: slug, Entry: entry, Title: "Add " + entry,
		Summary: "Sources checked this month.",
		NewEntry: &domain.NewEntry{Name: events.Text{Zh: "平台 " + entry, En: "Platform " + entry},
			Category: fmt.Sprintf("path%d", 1+g.Rng.IntN(4)), Website: "https://example.com/" + entry,
			Description: events.Text{En: "A platform in the generated market."}}}
	if err := g.As(a)(domain.DecideOpenProposal(r, g.Entry(slug, entry), ed, g.Proposal(id), a, open)); err != nil {
		return "", err
	}
	for n := 1; n <= spec.evidence; n++ {
		c := domain.AddEvidence{Proposal: id, Claim: events.Text{En: fmt.Sprintf("Claim %d about %s", n, entry)},
			SourceURL: fmt.Sprintf("https://example.com/%s/%d", entry, n), Section: fmt.Sprintf("§%d", 1+g.Rng.IntN(12)),
			Excerpt:    deskExcerpt[g.Rng.IntN(80):],
			ObservedOn: g.Clock.AddDate(0, 0, -g.Rng.IntN(60)).Format(time.DateOnly), ValidForDays: []int{0, 90, 180, 365}[g.Rng.IntN(4)]}
		if err := g.As(a)(domain.DecideAddEvidence(g.Proposal(id), a, c)); err != nil {
			return "", err
		}
	}
	cite := func() []string {
		ids := g.Proposal(id).EvidenceIDs()
		return []string{ids[g.Rng.IntN(len(ids))]}
	}
	for c := range deskCriteria {
		sc := domain.ProposeScore{Proposal: id, Criterion: fmt.Sprintf("c%d", c+1), To: g.Rng.IntN(11),
			Rationale: events.Text{En: "Follows from the cited sources."}, Evidence: cite()}
		if err := g.As(a)(domain.DecideProposeScore(r, ed, g.Proposal(id), a, sc)); err != nil {
			return "", err
		}
	}
	for _, at := range []domain.ProposeAttribute{
		{Attribute: "region", To: []string{[]string{"cn-north", "cn-east", "cn-south", "overseas"}[g.Rng.IntN(4)]}},
		{Attribute: "access", To: []string{"root", "container"}[:1+g.Rng.IntN(2)]},
	} {
		at.Proposal, at.Rationale, at.Evidence = id, events.Text{En: "Listed in the documentation."}, cite()
		if err := g.As(a)(domain.DecideProposeAttribute(r, ed, g.Proposal(id), a, at)); err != nil {
			return "", err
		}
	}
	if err := g.As(a)(domain.DecideSubmit(ed, g.Proposal(id), a)); err != nil {
		return "", err
	}
	for _, rv := range g.reviewers[:2] {
		p, ra := g.Proposal(id), g.Actor(rv)
		c := domain.CastVote{Proposal: id, Revision: p.Revision, Verdict: events.Approve, VerifiedEvidence: p.EvidenceIDs()}
		if err := g.As(ra)(domain.DecideCastVote(r, ed, p, ra, c)); err != nil {
			return "", err
		}
	}
	if st := g.Proposal(id).Status; st != domain.StatusCrossValidated {
		return "", fmt.Errorf("bench desk: %s ended %s", id, st)
	}
	return id, nil
}

func (g *deskGen) publish(slug string, ids []string) error {
	r, ed := g.Ranking(slug), g.Edition(slug)
	var ps []*domain.Proposal
	entries := map[string]*domain.Entry{}
	for _, id := range ids {
		p := g.Proposal(id)
		ps = append(ps, p)
		entries[p.Entry] = g.Entry(slug, p.Entry)
	}
	pv, err := domain.Preview(r, ed, ps, entries)
	if err != nil {
		return err
	}
	c := domain.PublishEdition{Ranking: slug, Proposals: pv.Proposals, PreviewHash: pv.Hash,
		Note: fmt.Sprintf("Edition %d", pv.Number)}
	if head, seq, ok := g.AuditHead(); ok {
		c.AuditHead, c.AuditSeq = head, seq
	}
	pub := g.Actor(g.publisher)
	return g.As(pub)(domain.DecidePublish(r, ed, ps, entries, nil, pub, c))
}
