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
	Seq          uint64 // stream sequence of the last event applied
}

// Exists reports whether the ranking has been defined.
func (r *Ranking) Exists() bool { return r != nil && r.Slug != "" }

// Evolve applies one event to the ranking.
func (r *Ranking) Evolve(e events.Event) {
	switch d := e.Data.(type) {
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

// DefineRanking creates a ranking from its definition.
type DefineRanking struct {
	CommandID  string // the caller's idempotency key: the id of the command's first event
	Definition events.RankingDefined
}

// DecideDefineRanking validates a new ranking definition.
func DecideDefineRanking(r *Ranking, actor Actor, d events.RankingDefined) ([]Change, error) {
	if err := actor.require(RolePublisher); err != nil {
		return nil, err
	}
	if r.Exists() {
		return nil, ErrRankingExists
	}
	if err := validateDefinition(d); err != nil {
		return nil, err
	}
	return one(RankingID(d.Slug), &d), nil
}

func validateDefinition(d events.RankingDefined) error {
	if err := CheckSlug("slug", d.Slug); err != nil {
		return err
	}
	if err := checkI18nName("title", d.Title.Zh, d.Title.En, MaxTitle, true); err != nil {
		return err
	}
	if err := checkI18n("description", d.Description.Zh, d.Description.En, MaxLongText, false); err != nil {
		return err
	}
	if len(d.Categories) == 0 || len(d.Categories) > MaxListItems {
		return invalid("categories", "ranking.category_count", Args{"limit": MaxListItems})
	}
	if len(d.Criteria) == 0 || len(d.Criteria) > MaxListItems {
		return invalid("criteria", "ranking.criterion_count", Args{"limit": MaxListItems})
	}
	seen := map[string]bool{}
	for _, c := range d.Categories {
		if err := uniqueSlug("categories", c.Slug, seen); err != nil {
			return err
		}
		if err := checkI18nName("categories.name", c.Name.Zh, c.Name.En, MaxTitle, true); err != nil {
			return err
		}
		if err := checkI18n("categories.description", c.Description.Zh, c.Description.En, MaxLongText, false); err != nil {
			return err
		}
	}
	weights := map[string]int{}
	var slugs []string
	for _, c := range d.Criteria {
		if err := uniqueSlug("criteria", c.Slug, seen); err != nil {
			return err
		}
		if err := checkI18nName("criteria.name", c.Name.Zh, c.Name.En, MaxTitle, true); err != nil {
			return err
		}
		if err := checkI18n("criteria.description", c.Description.Zh, c.Description.En, MaxLongText, false); err != nil {
			return err
		}
		weights[c.Slug] = c.Weight
		slugs = append(slugs, c.Slug)
	}
	if err := checkWeights("criteria", weights, slugs); err != nil {
		return err
	}
	for _, a := range d.Attributes {
		if err := uniqueSlug("attributes", a.Key, seen); err != nil {
			return err
		}
		if err := checkI18nName("attributes.name", a.Name.Zh, a.Name.En, MaxTitle, true); err != nil {
			return err
		}
		values := map[string]bool{}
		for _, v := range a.Values {
			if err := uniqueSlug("attributes.values", v.Value, values); err != nil {
				return err
			}
			if err := checkI18nName("attributes.values.label", v.Label.Zh, v.Label.En, MaxTitle, false); err != nil {
				return err
			}
		}
	}
	if d.Quorum.MinApprovals < 1 || d.Quorum.MinApprovals > 10 {
		return invalid("quorum.min_approvals", "ranking.min_approvals", nil)
	}
	return nil
}

func uniqueSlug(field, slug string, seen map[string]bool) error {
	if err := CheckSlug(field, slug); err != nil {
		return err
	}
	if seen[field+"/"+slug] {
		return invalid(field, "field.repeats", Args{"value": slug})
	}
	seen[field+"/"+slug] = true
	return nil
}

// SetWeights replaces a ranking's criteria weights.
type SetWeights struct {
	CommandID string // the caller's idempotency key: the id of the command's first event
	Ranking   string
	Weights   map[string]int // criterion slug → weight
}

// DecideSetWeights validates new criteria weights.
func DecideSetWeights(r *Ranking, actor Actor, w map[string]int) ([]Change, error) {
	if err := actor.require(RolePublisher); err != nil {
		return nil, err
	}
	if !r.Exists() {
		return nil, ErrRankingMissing
	}
	if err := checkWeights("weights", w, r.CriterionSlugs()); err != nil {
		return nil, err
	}
	return one(RankingID(r.Slug), &events.WeightsSet{Weights: w}), nil
}

// SetScenarios replaces a ranking's scenarios and needs-filters.
type SetScenarios struct {
	CommandID string // the caller's idempotency key: the id of the command's first event
	Ranking   string
	Scenarios events.ScenariosSet
}

// DecideSetScenarios validates scenarios and needs-filters.
func DecideSetScenarios(r *Ranking, actor Actor, s events.ScenariosSet) ([]Change, error) {
	if err := actor.require(RolePublisher); err != nil {
		return nil, err
	}
	if !r.Exists() {
		return nil, ErrRankingMissing
	}
	seen := map[string]bool{}
	for _, sc := range s.Scenarios {
		if err := uniqueSlug("scenarios", sc.Slug, seen); err != nil {
			return nil, err
		}
		if err := checkI18nName("scenarios.name", sc.Name.Zh, sc.Name.En, MaxTitle, true); err != nil {
			return nil, err
		}
		if err := checkI18n("scenarios.description", sc.Description.Zh, sc.Description.En, MaxLongText, false); err != nil {
			return nil, err
		}
		if err := checkWeights("scenarios."+sc.Slug, sc.Weights, r.CriterionSlugs()); err != nil {
			return nil, err
		}
	}
	for _, f := range s.Filters {
		if err := uniqueSlug("filters", f.Key, seen); err != nil {
			return nil, err
		}
		if err := checkI18n("filters.question", f.Question.Zh, f.Question.En, MaxShortText, true); err != nil {
			return nil, err
		}
		options := map[string]bool{}
		for _, o := range f.Options {
			if err := uniqueSlug("filters.options", o.Value, options); err != nil {
				return nil, err
			}
			if err := checkI18nName("filters.options.label", o.Label.Zh, o.Label.En, MaxTitle, false); err != nil {
				return nil, err
			}
			for _, req := range o.Requires {
				if _, ok := r.Attribute(req.Attribute); !ok {
					return nil, invalid("filters.options.requires", "ranking.unknown_attribute", Args{"attribute": req.Attribute})
				}
				if err := checkTags("filters.options.requires.any_of", req.AnyOf); err != nil {
					return nil, err
				}
				if err := checkI18n("filters.options.requires.reason", req.Reason.Zh, req.Reason.En, MaxShortText, false); err != nil {
					return nil, err
				}
			}
		}
	}
	return one(RankingID(r.Slug), &s), nil
}
