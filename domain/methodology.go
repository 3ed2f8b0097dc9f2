package domain

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"

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
	Rationale   string
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

// ValidateMethodology checks a whole methodology; a field error names the
// field by its path, as the ranking file and the form hold it
// ("criteria[3].weight").
func ValidateMethodology(m events.Methodology) error {
	if err := checkI18nName("title", m.Title.Zh, m.Title.En, MaxTitle, true); err != nil {
		return err
	}
	if err := checkI18n("description", m.Description.Zh, m.Description.En, MaxLongText, false); err != nil {
		return err
	}
	if len(m.Categories) == 0 || len(m.Categories) > MaxListItems {
		return invalid("categories", "ranking.category_count", Args{"limit": MaxListItems})
	}
	if len(m.Criteria) == 0 || len(m.Criteria) > MaxListItems {
		return invalid("criteria", "ranking.criterion_count", Args{"limit": MaxListItems})
	}
	for _, l := range []struct {
		name string
		n    int
	}{{"attributes", len(m.Attributes)}, {"scenarios", len(m.Scenarios)}, {"filters", len(m.Filters)}} {
		if l.n > MaxListItems {
			return invalid(l.name, "field.too_many", Args{"limit": MaxListItems})
		}
	}
	seen := map[string]bool{}
	for i, c := range m.Categories {
		at := fmt.Sprintf("categories[%d]", i)
		if err := uniqueSlug(at+".slug", "categories", c.Slug, seen); err != nil {
			return err
		}
		if err := checkI18nName(at+".name", c.Name.Zh, c.Name.En, MaxTitle, true); err != nil {
			return err
		}
		if err := checkI18n(at+".description", c.Description.Zh, c.Description.En, MaxLongText, false); err != nil {
			return err
		}
	}
	sum := 0
	for i, c := range m.Criteria {
		at := fmt.Sprintf("criteria[%d]", i)
		if err := uniqueSlug(at+".slug", "criteria", c.Slug, seen); err != nil {
			return err
		}
		if err := checkI18nName(at+".name", c.Name.Zh, c.Name.En, MaxTitle, true); err != nil {
			return err
		}
		if err := checkI18n(at+".description", c.Description.Zh, c.Description.En, MaxLongText, false); err != nil {
			return err
		}
		if c.Weight < 0 || c.Weight > 100 {
			return invalid(at+".weight", "ranking.weight_range", Args{"criterion": c.Slug})
		}
		sum += c.Weight
	}
	if sum != 100 {
		return invalid("criteria", "ranking.weight_sum", Args{"sum": sum})
	}
	r := &Ranking{Criteria: m.Criteria, Attributes: m.Attributes}
	for i, a := range m.Attributes {
		at := fmt.Sprintf("attributes[%d]", i)
		if err := uniqueSlug(at+".key", "attributes", a.Key, seen); err != nil {
			return err
		}
		if err := checkI18nName(at+".name", a.Name.Zh, a.Name.En, MaxTitle, true); err != nil {
			return err
		}
		if len(a.Values) > MaxListItems {
			return invalid(at+".values", "field.too_many", Args{"limit": MaxListItems})
		}
		values := map[string]bool{}
		for j, v := range a.Values {
			vat := fmt.Sprintf("%s.values[%d]", at, j)
			if err := uniqueSlug(vat+".value", "values", v.Value, values); err != nil {
				return err
			}
			if err := checkI18nName(vat+".label", v.Label.Zh, v.Label.En, MaxTitle, false); err != nil {
				return err
			}
		}
	}
	for i, sc := range m.Scenarios {
		at := fmt.Sprintf("scenarios[%d]", i)
		if err := uniqueSlug(at+".slug", "scenarios", sc.Slug, seen); err != nil {
			return err
		}
		if err := checkI18nName(at+".name", sc.Name.Zh, sc.Name.En, MaxTitle, true); err != nil {
			return err
		}
		if err := checkI18n(at+".description", sc.Description.Zh, sc.Description.En, MaxLongText, false); err != nil {
			return err
		}
		if err := checkWeights(at+".weights", sc.Weights, r.CriterionSlugs()); err != nil {
			return err
		}
	}
	for i, f := range m.Filters {
		at := fmt.Sprintf("filters[%d]", i)
		if err := uniqueSlug(at+".key", "filters", f.Key, seen); err != nil {
			return err
		}
		if err := checkI18n(at+".question", f.Question.Zh, f.Question.En, MaxShortText, true); err != nil {
			return err
		}
		if len(f.Options) > MaxListItems {
			return invalid(at+".options", "field.too_many", Args{"limit": MaxListItems})
		}
		options := map[string]bool{}
		for j, o := range f.Options {
			oat := fmt.Sprintf("%s.options[%d]", at, j)
			if err := uniqueSlug(oat+".value", "options", o.Value, options); err != nil {
				return err
			}
			if err := checkI18nName(oat+".label", o.Label.Zh, o.Label.En, MaxTitle, false); err != nil {
				return err
			}
			for k, req := range o.Requires {
				rat := fmt.Sprintf("%s.requires[%d]", oat, k)
				def, ok := r.Attribute(req.Attribute)
				if !ok {
					return invalid(rat+".attribute", "ranking.unknown_attribute", Args{"attribute": req.Attribute})
				}
				if err := checkTags(rat+".any_of", req.AnyOf); err != nil {
					return err
				}
				if len(def.Values) > 0 {
					for _, t := range req.AnyOf {
						if !slices.ContainsFunc(def.Values, func(v events.AttributeValue) bool { return v.Value == t }) {
							return invalid(rat+".any_of", "ranking.not_option", Args{"value": t, "attribute": def.Key})
						}
					}
				}
				if err := checkI18n(rat+".reason", req.Reason.Zh, req.Reason.En, MaxShortText, false); err != nil {
					return err
				}
			}
		}
	}
	if m.Quorum.MinApprovals < 1 || m.Quorum.MinApprovals > 10 {
		return invalid("quorum.min_approvals", "ranking.min_approvals", nil)
	}
	if m.License != "" {
		if err := checkLicense("license", m.License); err != nil {
			return err
		}
	}
	return nil
}

// uniqueSlug checks a slug and that no other item of the same list (kind)
// holds it.
func uniqueSlug(field, kind, slug string, seen map[string]bool) error {
	if err := CheckSlug(field, slug); err != nil {
		return err
	}
	if seen[kind+"/"+slug] {
		return invalid(field, "field.repeats", Args{"value": slug})
	}
	seen[kind+"/"+slug] = true
	return nil
}

// checkLicense accepts an SPDX license identifier or expression made of
// letters, digits, '.', '-', '+', parentheses and spaces (at most 100 bytes).
func checkLicense(field, s string) error {
	if len(s) > 100 {
		return invalid(field, "field.too_long", Args{"length": len(s), "limit": 100})
	}
	for _, c := range s {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			c == '.' || c == '-' || c == '+' || c == '(' || c == ')' || c == ' ' || c == ':'
		if !ok {
			return invalid(field, "ranking.bad_license", nil)
		}
	}
	return nil
}

// DiffMethodology lists what changes from old to new, in a fixed order:
// title and description, categories, criteria (added, retired, renamed,
// weights), attributes, scenarios, filters, quorum, license. A ranking's
// first methodology is one "defined" change.
func DiffMethodology(old, new events.Methodology, first bool) []events.MethodologyChange {
	if first {
		return []events.MethodologyChange{{Kind: "defined", To: new.Title.En}}
	}
	var out []events.MethodologyChange
	add := func(kind, target, from, to string) {
		out = append(out, events.MethodologyChange{Kind: kind, Target: target, From: from, To: to})
	}
	if old.Title != new.Title {
		add("title", "", textOf(old.Title), textOf(new.Title))
	}
	if old.Description != new.Description {
		add("description", "", "", "")
	}
	diffList(old.Categories, new.Categories, func(c events.Category) string { return c.Slug },
		func(kind string, o, n *events.Category) {
			switch kind {
			case "added":
				add("category_added", n.Slug, "", textOf(n.Name))
			case "retired":
				add("category_retired", o.Slug, textOf(o.Name), "")
			case "kept":
				if o.Name != n.Name || o.Description != n.Description {
					add("category_changed", n.Slug, textOf(o.Name), textOf(n.Name))
				}
			}
		})
	diffList(old.Criteria, new.Criteria, func(c events.Criterion) string { return c.Slug },
		func(kind string, o, n *events.Criterion) {
			switch kind {
			case "added":
				add("criterion_added", n.Slug, "", strconv.Itoa(n.Weight))
			case "retired":
				add("criterion_retired", o.Slug, strconv.Itoa(o.Weight), "")
			case "kept":
				if o.Name != n.Name || o.Description != n.Description {
					add("criterion_renamed", n.Slug, textOf(o.Name), textOf(n.Name))
				}
				if o.Weight != n.Weight {
					add("weight", n.Slug, strconv.Itoa(o.Weight), strconv.Itoa(n.Weight))
				}
			}
		})
	diffList(old.Attributes, new.Attributes, func(a events.AttributeDef) string { return a.Key },
		func(kind string, o, n *events.AttributeDef) {
			switch kind {
			case "added":
				add("attribute_added", n.Key, "", textOf(n.Name))
			case "retired":
				add("attribute_retired", o.Key, textOf(o.Name), "")
			case "kept":
				if !same(o, n) {
					add("attribute_changed", n.Key, "", "")
				}
			}
		})
	diffList(old.Scenarios, new.Scenarios, func(s events.Scenario) string { return s.Slug },
		func(kind string, o, n *events.Scenario) {
			switch kind {
			case "added":
				add("scenario_added", n.Slug, "", textOf(n.Name))
			case "retired":
				add("scenario_retired", o.Slug, textOf(o.Name), "")
			case "kept":
				if !same(o, n) {
					add("scenario_changed", n.Slug, "", "")
				}
			}
		})
	diffList(old.Filters, new.Filters, func(f events.Filter) string { return f.Key },
		func(kind string, o, n *events.Filter) {
			switch kind {
			case "added":
				add("filter_added", n.Key, "", textOf(n.Question))
			case "retired":
				add("filter_retired", o.Key, textOf(o.Question), "")
			case "kept":
				if !same(o, n) {
					add("filter_changed", n.Key, "", "")
				}
			}
		})
	if old.Quorum != new.Quorum {
		add("quorum", "", strconv.Itoa(old.Quorum.MinApprovals), strconv.Itoa(new.Quorum.MinApprovals))
	}
	if old.License != new.License {
		add("license", "", old.License, new.License)
	}
	if old.Illustrative != new.Illustrative {
		add("illustrative", "", strconv.FormatBool(old.Illustrative), strconv.FormatBool(new.Illustrative))
	}
	return out
}

// diffList calls fn with "retired" for every item of old missing from new
// (in old's order), then "added" or "kept" for every item of new (in new's).
func diffList[T any](old, new []T, key func(T) string, fn func(kind string, o, n *T)) {
	byKey := make(map[string]*T, len(old))
	for i := range old {
		byKey[key(old[i])] = &old[i]
	}
	newKeys := map[string]bool{}
	for _, n := range new {
		newKeys[key(n)] = true
	}
	for i := range old {
		if !newKeys[key(old[i])] {
			fn("retired", &old[i], nil)
		}
	}
	for i := range new {
		if o, ok := byKey[key(new[i])]; ok {
			fn("kept", o, &new[i])
		} else {
			fn("added", nil, &new[i])
		}
	}
}

func same(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// textOf joins a bilingual text the way the changelog stores it: "zh / en"
// (one of them when they are equal or one is empty).
func textOf(t events.Text) string {
	switch {
	case t.Zh == "" || t.Zh == t.En:
		return t.En
	case t.En == "":
		return t.Zh
	}
	return t.Zh + " / " + t.En
}

// ProposeMethodology sets the methodology a methodology proposal proposes.
type ProposeMethodology struct {
	CommandID   string // the caller's idempotency key: the id of the command's first event
	Proposal    string
	Methodology events.Methodology
	Rationale   string
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
	if err := checkText("rationale", c.Rationale, MaxLongText, true); err != nil {
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
