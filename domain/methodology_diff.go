package domain

import (
	"encoding/json"
	"strconv"

	"github.com/crossrank/crossrank/events"
)

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
