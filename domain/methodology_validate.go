package domain

import (
	"fmt"
	"slices"

	"github.com/crossrank/crossrank/events"
)

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
				if err := checkRequirement(r, fmt.Sprintf("%s.requires[%d]", oat, k), req); err != nil {
					return err
				}
			}
		}
	}
	// The policy may raise the floor (DefaultQuorum), never lower it.
	if m.Quorum.MinApprovals < DefaultQuorum.MinApprovals || m.Quorum.MinApprovals > 10 {
		return invalid("quorum.min_approvals", "ranking.min_approvals", nil)
	}
	if !m.Quorum.RequireEvidenceVerified {
		return invalid("quorum.require_evidence_verified", "ranking.evidence_verification", nil)
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

// checkRequirement checks one needs-filter requirement (at names it):
// a known attribute, and tags among its known values.
func checkRequirement(r *Ranking, at string, req events.Requirement) error {
	def, ok := r.Attribute(req.Attribute)
	if !ok {
		return invalid(at+".attribute", "ranking.unknown_attribute", Args{"attribute": req.Attribute})
	}
	if err := checkTags(at+".any_of", req.AnyOf); err != nil {
		return err
	}
	if err := knownTags(at+".any_of", def, req.AnyOf); err != nil {
		return err
	}
	return checkI18n(at+".reason", req.Reason.Zh, req.Reason.En, MaxShortText, false)
}

// knownTags checks that every tag is one of the attribute's known values
// (any tag, for an attribute without known values).
func knownTags(field string, def events.AttributeDef, tags []string) error {
	if len(def.Values) == 0 {
		return nil
	}
	for _, t := range tags {
		if !slices.ContainsFunc(def.Values, func(v events.AttributeValue) bool { return v.Value == t }) {
			return invalid(field, "ranking.not_option", Args{"value": t, "attribute": def.Key})
		}
	}
	return nil
}
