package site

import (
	"context"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/ui"
)

// The ranking page's controls: the table's sortable headers, the scenario
// and category tabs, the needs filters and the evidence bases, each a link
// that keeps the reader's other choices.

// rankingColumns are the table's headers, each a link that sorts by it
// (plain text in a static export, whose files hold the rank order).
func rankingColumns(p ui.Page, l linkSet, slug string, q viewQuery, crit []criterionView, tiers bool) []column {
	cols := []column{{Key: "", Label: "#", Class: "pub-c-rank"}, {Key: "name", Label: p.T("glance.col_name"), Class: "pub-c-name"},
		{Key: "category", Label: p.T("glance.col_category"), Class: "pub-c-cat"}}
	if tiers {
		cols = append(cols, column{Key: "tier", Label: p.T("glance.col_tier"), Class: "pub-c-tier"})
	}
	cols = append(cols, column{Key: "total", Label: p.T("glance.col_total"), Class: "pub-c-total"})
	for _, c := range crit {
		cols = append(cols, column{Key: "c." + c.Slug, Label: c.Name, Detail: itoa(c.Weight) + "%", Off: c.Weight == 0, Class: "pub-c-score"})
	}
	cols = append(cols, column{Key: "move", Label: p.T("glance.col_move"), Class: "pub-c-move"})
	for i, c := range cols {
		cur := q.Sort.Column
		if c.Key == "" && (cur == "" || cur == "rank") {
			cols[i].Sort = "ascending"
			if q.Sort.Desc {
				cols[i].Sort = "descending"
			}
		} else if c.Key != "" && c.Key == cur {
			cols[i].Sort = map[bool]string{false: "ascending", true: "descending"}[q.Sort.Desc]
		}
		if l.Static() {
			continue
		}
		at := q
		at.Page, at.Sort = 0, headerSort(q.Sort, c.Key)
		cols[i].Href = l.RankingQuery(slug, at.values())
	}
	return cols
}

// namedEntries returns the entries of ranking whose name or slug holds
// name, from the search index; nil when name is "" (no filter).
func namedEntries(ctx context.Context, read *projections.Store, ranking, name string) (map[string]bool, error) {
	if name == "" {
		return nil, nil
	}
	return read.NamedEntries(ctx, ranking, name)
}

// pickers builds the scenario and category tabs (each keeping the other
// choices) and the needs questions.
func pickers(p ui.Page, l linkSet, r *domain.Ranking, q viewQuery) (scen, cats []choice, filters []filterView) {
	link := func(scenario, category string) string {
		next := q
		next.Scenario, next.Category = scenario, category
		return l.RankingQuery(r.Slug, next.values())
	}
	scen = append(scen, choice{Label: p.T("public.overall"), Href: link("", q.Category), Current: q.Scenario == ""})
	for _, sc := range r.Scenarios {
		scen = append(scen, choice{Value: sc.Slug, Label: sc.Name.In(p.Lang), Href: link(sc.Slug, q.Category), Current: q.Scenario == sc.Slug})
	}
	cats = append(cats, choice{Label: p.T("public.all_categories"), Href: link(q.Scenario, ""), Current: q.Category == ""})
	for _, c := range r.Categories {
		cats = append(cats, choice{Value: c.Slug, Label: c.Name.In(p.Lang), Href: link(q.Scenario, c.Slug), Current: q.Category == c.Slug})
	}
	for _, f := range r.Filters {
		if reserved[f.Key] {
			continue
		}
		pf := filterView{Key: f.Key, Question: f.Question.In(p.Lang)}
		pf.Options = append(pf.Options, choice{Label: p.T("public.need_any"), Current: q.Needs[f.Key] == ""})
		for _, o := range f.Options {
			pf.Options = append(pf.Options, choice{Value: o.Value, Label: o.Label.In(p.Lang), Current: q.Needs[f.Key] == o.Value})
		}
		filters = append(filters, pf)
	}
	return scen, cats, filters
}

// bases are the two tabs of the evidence a ranking counts, each keeping
// the reader's other choices.
func bases(p ui.Page, l linkSet, slug string, q viewQuery) []choice {
	all, ind := q, q
	all.Independent, ind.Independent = false, true
	return []choice{
		{Value: "all", Label: p.T("public.view_published"), Href: l.RankingQuery(slug, all.values()), Current: !q.Independent},
		{Value: independentEvidence, Label: p.T("public.view_independent"), Href: l.RankingQuery(slug, ind.values()), Current: q.Independent},
	}
}
