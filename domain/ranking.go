package domain

import (
	"slices"

	"github.com/crossrank/crossrank/events"
)

// Ranking is a ranking's definition: categories, criteria with weights,
// attributes, scenarios, needs-filters and the quorum policy.
type Ranking struct {
	Slug        string
	Title       events.Text
	Description events.Text
	Categories  []events.Category
	Criteria    []events.Criterion
	Attributes  []events.AttributeDef
	Quorum      events.QuorumPolicy
	Scenarios   []events.Scenario
	Filters     []events.Filter
	// Illustrative reports whether the scores only illustrate the tool (the
	// demo ranking); the public pages say so.
	Illustrative bool
	License      string // SPDX identifier of the published data's license
	// Edition is the edition that published the current methodology (0:
	// not yet published, or defined before methodology was reviewed).
	Edition   int
	Conflicts []Conflict // reviewers' declared conflicts of interest, in order
	// ChatURL is the chat webhook that hears the ranking's review requests
	// and publications ("" none); ChatLang the language of its messages.
	ChatURL, ChatLang string
	Seq               uint64 // stream sequence of the last event applied
	// reviewers, when set, says who holds the reviewer role now: the
	// handler feeds it in for a quorum evaluation (quorum_roles.go).
	reviewers ReviewerCheck
}

// Exists reports whether the ranking has been defined.
func (r *Ranking) Exists() bool { return r != nil && r.Slug != "" }

// Evolve applies one event to the ranking. RankingDefined, WeightsSet and
// ScenariosSet are what rankings were defined and changed with before
// methodology went through review: stores that hold them replay as before.
func (r *Ranking) Evolve(e events.Event) {
	switch d := e.Data.(type) {
	case *events.ConflictDeclared:
		r.Conflicts = append(slices.Clone(r.Conflicts), Conflict{User: d.User, Entry: d.Entry, Reason: d.Reason, At: e.Time})
	case *events.MethodologyPublished:
		r.Slug, r.Edition = d.Slug, d.Edition
		r.setMethodology(d.Methodology)
	case *events.RankingDefined:
		r.Slug, r.Title, r.Description = d.Slug, d.Title, d.Description
		r.Categories, r.Criteria, r.Attributes, r.Quorum = d.Categories, d.Criteria, d.Attributes, d.Quorum
		r.Illustrative = d.Illustrative
	case *events.WeightsSet:
		crit := slices.Clone(r.Criteria)
		for i := range crit {
			crit[i].Weight = d.Weights[crit[i].Slug]
		}
		r.Criteria = crit
	case *events.ScenariosSet:
		r.Scenarios, r.Filters = d.Scenarios, d.Filters
	case *events.ChatWebhookSet:
		r.ChatURL, r.ChatLang = d.URL, d.Lang
	}
	r.Seq = e.Sequence
}

// Weights returns the criteria weights by criterion slug.
func (r *Ranking) Weights() map[string]int {
	w := make(map[string]int, len(r.Criteria))
	for _, c := range r.Criteria {
		w[c.Slug] = c.Weight
	}
	return w
}

// CriterionSlugs returns the criteria slugs in definition order.
func (r *Ranking) CriterionSlugs() []string {
	out := make([]string, len(r.Criteria))
	for i, c := range r.Criteria {
		out[i] = c.Slug
	}
	return out
}

// HasCriterion reports whether slug is one of the ranking's criteria.
func (r *Ranking) HasCriterion(slug string) bool {
	return slices.ContainsFunc(r.Criteria, func(c events.Criterion) bool { return c.Slug == slug })
}

// HasCategory reports whether slug is one of the ranking's categories.
func (r *Ranking) HasCategory(slug string) bool {
	return slices.ContainsFunc(r.Categories, func(c events.Category) bool { return c.Slug == slug })
}

// Attribute returns the attribute definition with key, if any.
func (r *Ranking) Attribute(key string) (events.AttributeDef, bool) {
	i := slices.IndexFunc(r.Attributes, func(a events.AttributeDef) bool { return a.Key == key })
	if i < 0 {
		return events.AttributeDef{}, false
	}
	return r.Attributes[i], true
}

// Scenario returns the scenario with slug, if any.
func (r *Ranking) Scenario(slug string) (events.Scenario, bool) {
	i := slices.IndexFunc(r.Scenarios, func(s events.Scenario) bool { return s.Slug == slug })
	if i < 0 {
		return events.Scenario{}, false
	}
	return r.Scenarios[i], true
}
