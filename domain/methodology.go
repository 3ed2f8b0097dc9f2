package domain

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/crossrank/crossrank/events"
)

// A methodology proposal carries a ranking's whole methodology — its
// categories, criteria and weights, attributes, scenarios, needs-filters
// and quorum policy — and is reviewed like any other proposal: two
// distinct non-author approvals, vetoes carry over, a revision outdates
// approvals. A rationale takes the place of evidence (evidence may still be
// added and must then be verified). A publisher publishes it in an edition;
// the edition's MethodologyPublished is the only way a ranking is defined
// or its methodology changes, so no rank moves without review.

// ProposedMethodology is what a methodology proposal's current revision proposes.
type ProposedMethodology struct {
	Methodology events.Methodology
	Base        int // the edition whose methodology it changes
	Rationale   events.Text
}

// IsMethodology reports whether the proposal changes a ranking's
// methodology rather than an entry.
func (p *Proposal) IsMethodology() bool { return p.Kind == KindMethodology }

// Proposal kinds.
const (
	KindEntry       = ""            // changes one entry's scores and attributes
	KindMethodology = "methodology" // changes, or defines, the ranking's methodology
)

// Methodology returns the ranking's current methodology.
func (r *Ranking) Methodology() events.Methodology {
	return events.Methodology{Title: r.Title, Description: r.Description, Categories: r.Categories,
		Criteria: r.Criteria, Attributes: r.Attributes, Scenarios: r.Scenarios, Filters: r.Filters,
		Quorum: r.Quorum, License: r.License, Illustrative: r.Illustrative}
}

// ProposedRanking is the ranking a new-ranking proposal would define: what
// the proposals that depend on it are checked against until it is published.
func ProposedRanking(slug string, m events.Methodology) *Ranking {
	return (&Ranking{}).withMethodology(slug, m)
}

// withMethodology returns a copy of r under methodology m.
func (r *Ranking) withMethodology(slug string, m events.Methodology) *Ranking {
	out := *r
	out.Slug = slug
	out.setMethodology(m)
	return &out
}

func (r *Ranking) setMethodology(m events.Methodology) {
	r.Title, r.Description, r.Categories, r.Criteria = m.Title, m.Description, m.Categories, m.Criteria
	r.Attributes, r.Scenarios, r.Filters, r.Quorum = m.Attributes, m.Scenarios, m.Filters, m.Quorum
	r.License, r.Illustrative = m.License, m.Illustrative
}

// MethodologyHash is the hex SHA-256 of a methodology's JSON: what the
// ranking file and the API show to tell two methodologies apart.
func MethodologyHash(m events.Methodology) string {
	b, _ := json.Marshal(m)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// ProposeMethodology sets the methodology a methodology proposal proposes.
type ProposeMethodology struct {
	CommandID   string // the caller's idempotency key: the id of the command's first event
	Proposal    string
	Methodology events.Methodology
	Rationale   events.Text
}

// DecideProposeMethodology yields MethodologyProposed against the
// ranking's published methodology: its base is the edition that last
// published one, and a change that changes nothing is refused.
func DecideProposeMethodology(r *Ranking, ed *Edition, p *Proposal, actor Actor, c ProposeMethodology) ([]Change, error) {
	if err := p.may(actor, actionEdit, nil); err != nil {
		return nil, err
	}
	if !p.IsMethodology() {
		return nil, invalid("methodology", "methodology.entry_proposal", nil)
	}
	if err := ValidateMethodology(c.Methodology); err != nil {
		return nil, err
	}
	if err := checkI18n("rationale", c.Rationale.Zh, c.Rationale.En, MaxLongText, true); err != nil {
		return nil, err
	}
	if r.Exists() && same(r.Methodology(), c.Methodology) {
		return nil, invalid("methodology", "methodology.unchanged", nil)
	}
	return one(ProposalID(p.ID), &events.MethodologyProposed{Revision: p.Revision,
		Methodology: c.Methodology, Base: ed.MethodologyEdition, Rationale: c.Rationale}), nil
}

// methodologyRelease works out what publishing methodology proposal mp
// does to ranking r and its published state ed: the ranking after, the
// MethodologyPublished to append, and the changes that clear the scores of
// retired criteria and the tags of retired attributes.
func methodologyRelease(r *Ranking, ed *Edition, mp *Proposal, number int) (*Ranking, *events.MethodologyPublished, []events.AppliedChange, error) {
	m := mp.Methodology.Methodology
	if mp.NewRanking && r.Exists() {
		return nil, nil, nil, fmt.Errorf("%w: %s", ErrRankingExists, mp.Ranking)
	}
	if !mp.NewRanking && !r.Exists() {
		return nil, nil, nil, ErrRankingMissing
	}
	after := r.withMethodology(mp.Ranking, m)
	rel := &events.MethodologyPublished{Edition: number, Proposal: mp.ID, Slug: mp.Ranking, Methodology: m,
		Changes: DiffMethodology(r.Methodology(), m, !r.Exists())}
	var cleared []events.AppliedChange
	for _, slug := range ed.EntrySlugs() {
		pe := ed.Entries[slug]
		if !after.HasCategory(pe.Category) {
			return nil, nil, nil, invalid("categories", "methodology.category_in_use",
				Args{"category": pe.Category, "entry": slug})
		}
		for _, c := range slices.Sorted(maps.Keys(pe.Scores)) {
			if !after.HasCriterion(c) {
				from := pe.Scores[c]
				cleared = append(cleared, events.AppliedChange{Proposal: mp.ID, Entry: slug, Target: "score:" + c,
					FromScore: &from, Evidence: []string{}})
			}
		}
		for _, a := range slices.Sorted(maps.Keys(pe.Attributes)) {
			if _, ok := after.Attribute(a); !ok {
				cleared = append(cleared, events.AppliedChange{Proposal: mp.ID, Entry: slug, Target: "attr:" + a,
					FromTags: slices.Clone(pe.Attributes[a]), Evidence: []string{}})
			}
		}
	}
	return after, rel, cleared, nil
}

// fitsMethodology checks an entry proposal against the methodology the
// edition publishes under: its entry's category, criteria and attributes
// must all be in it.
func fitsMethodology(r *Ranking, p *Proposal, category string) error {
	if category != "" && !r.HasCategory(category) {
		return invalid("proposals", "edition.not_in_methodology", Args{"proposal": p.ID, "target": "category:" + category})
	}
	for _, t := range p.Targets() {
		kind, key := splitTarget(t)
		ok := kind == "score" && r.HasCriterion(key)
		if kind == "attr" {
			_, ok = r.Attribute(key)
		}
		if !ok {
			return invalid("proposals", "edition.not_in_methodology", Args{"proposal": p.ID, "target": t})
		}
	}
	return nil
}
