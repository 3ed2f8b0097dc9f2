package site

import (
	"context"
	"strings"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/ui"
)

// methodEdition is one edition that published the methodology, as the
// methodology page lists it: each change worded for the reader.
type methodEdition struct {
	Number      int
	Href        string // the edition's page
	PublishedOn string
	Proposal    string
	AuditHref   string // the proposal's audit record; "" in a static export
	Changes     []string
}

// methodHistoryOf words the methodology's history, newest edition first.
func methodHistoryOf(ctx context.Context, read *projections.Store, p ui.Page, l linkSet, slug string, r *domain.Ranking) ([]methodEdition, error) {
	hist, err := read.MethodologyHistory(ctx, slug)
	if err != nil {
		return nil, err
	}
	out := make([]methodEdition, 0, len(hist))
	for i := len(hist) - 1; i >= 0; i-- {
		h := hist[i]
		me := methodEdition{Number: h.Edition, Href: l.Edition(slug, h.Edition), PublishedOn: dayText(p, h.At),
			Proposal: h.Proposal, AuditHref: l.Audit(h.Proposal)}
		for _, c := range h.Changes {
			me.Changes = append(me.Changes, methodChangeText(p, r, c))
		}
		out = append(out, me)
	}
	return out, nil
}

// methodChangesOf words the methodology changes edition n published
// (none when it published no methodology).
func methodChangesOf(ctx context.Context, read *projections.Store, p ui.Page, slug string, n int, r *domain.Ranking) ([]string, error) {
	hist, err := read.MethodologyHistory(ctx, slug)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, h := range hist {
		if h.Edition != n {
			continue
		}
		for _, c := range h.Changes {
			out = append(out, methodChangeText(p, r, c))
		}
	}
	return out, nil
}

// methodChangeText words one change in the page's language: the catalog's
// "public.mchange.<kind>" with the item's name (from the ranking now, or
// the recorded name of an item since retired), the old and the new value.
func methodChangeText(p ui.Page, r *domain.Ranking, c events.MethodologyChange) string {
	key := "public.mchange." + c.Kind
	if p.T(key) == key {
		return p.T("public.mchange.other", c.Kind, orDash(c.Target))
	}
	if !strings.Contains(p.T(key), "%") {
		return p.T(key) // names no value (a rewritten description)
	}
	return p.T(key, targetName(p, r, c), orDash(c.From), orDash(c.To))
}

// targetName names the item a change is about in the page's language.
func targetName(p ui.Page, r *domain.Ranking, c events.MethodologyChange) string {
	for _, x := range r.Categories {
		if x.Slug == c.Target && (c.Kind == "category_added" || c.Kind == "category_retired" || c.Kind == "category_changed") {
			return x.Name.In(p.Lang)
		}
	}
	for _, x := range r.Criteria {
		if x.Slug == c.Target && (c.Kind == "weight" || c.Kind == "criterion_added" || c.Kind == "criterion_renamed" || c.Kind == "criterion_retired") {
			return x.Name.In(p.Lang)
		}
	}
	for _, x := range r.Attributes {
		if x.Key == c.Target && (c.Kind == "attribute_added" || c.Kind == "attribute_changed" || c.Kind == "attribute_retired") {
			return x.Name.In(p.Lang)
		}
	}
	for _, x := range r.Scenarios {
		if x.Slug == c.Target && (c.Kind == "scenario_added" || c.Kind == "scenario_changed" || c.Kind == "scenario_retired") {
			return x.Name.In(p.Lang)
		}
	}
	for _, x := range r.Filters {
		if x.Key == c.Target && (c.Kind == "filter_added" || c.Kind == "filter_changed" || c.Kind == "filter_retired") {
			return x.Question.In(p.Lang)
		}
	}
	if c.Target == "" {
		return "—"
	}
	return c.Target // retired since: its slug
}
