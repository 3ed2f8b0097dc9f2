package site

import (
	"maps"
	"net/url"
	"slices"
	"strconv"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/ui"
)

// viewQuery is what a reader chose on a ranking page: a scenario, a
// category and answers to the needs-filters. Unknown values are dropped,
// so any shared URL shows a valid view.
type viewQuery struct {
	Scenario string
	Category string
	Needs    map[string]string // filter key → option value
	// Name keeps the entries whose name (either language) or slug holds
	// it (?q=), normalised as the search index is (projections.SearchText).
	Name string
	// Page is the page of the list (?page=N, 1-based), in the rank order
	// of the view; 0 and 1 are the first.
	Page int
	// Independent counts only the scores independent evidence backs
	// (?evidence=independent; see domain.IndependentEdition).
	Independent bool
	// Sort is the column the table is sorted by (?sort=); zero: by rank.
	Sort sortKey
}

// reserved are query names that are not needs.
// ("all" once showed every row: it is still no need, so old links work.)
var reserved = map[string]bool{"scenario": true, "category": true, "lang": true, "all": true, "evidence": true,
	"q": true, "sort": true, ui.PageParam: true}

// independentEvidence is the value of ?evidence= that asks for the
// independent view.
const independentEvidence = "independent"

// viewQueryOf reads the reader's choices from q, keeping known values only.
func viewQueryOf(r *domain.Ranking, q url.Values) viewQuery {
	out := viewQuery{Needs: map[string]string{}}
	if _, ok := r.Scenario(q.Get("scenario")); ok {
		out.Scenario = q.Get("scenario")
	}
	if r.HasCategory(q.Get("category")) {
		out.Category = q.Get("category")
	}
	out.Name = projections.SearchText(q.Get("q"))
	out.Page = ui.RequestedPage(q)
	out.Independent = q.Get("evidence") == independentEvidence
	out.Sort = sortKeyOf(r, q.Get("sort"))
	for _, f := range r.Filters {
		v := q.Get(f.Key)
		if reserved[f.Key] || v == "" {
			continue
		}
		if slices.ContainsFunc(f.Options, func(o events.FilterOption) bool { return o.Value == v }) {
			out.Needs[f.Key] = v
		}
	}
	return out
}

// values is the query that shows this view: only what the reader chose
// (the defaults are absent), so it is also the view's canonical query.
func (q viewQuery) values() url.Values {
	v := url.Values{}
	if q.Scenario != "" {
		v.Set("scenario", q.Scenario)
	}
	if q.Category != "" {
		v.Set("category", q.Category)
	}
	for k, n := range q.Needs {
		v.Set(k, n)
	}
	if q.Name != "" {
		v.Set("q", q.Name)
	}
	if q.Page > 1 {
		v.Set(ui.PageParam, strconv.Itoa(q.Page))
	}
	if q.Independent {
		v.Set("evidence", independentEvidence)
	}
	if s := q.Sort.String(); s != "" {
		v.Set("sort", s)
	}
	return v
}

// hiddenField is a name and value a GET form carries along.
type hiddenField struct{ Name, Value string }

// keptFields are the view's choices other than the name filter and the
// page, as hidden fields of the name form (a new filter starts at page 1).
func (v rankingView) keptFields() []hiddenField {
	q := v.withoutName()
	var out []hiddenField
	for _, k := range slices.Sorted(maps.Keys(q)) {
		out = append(out, hiddenField{Name: k, Value: q.Get(k)})
	}
	return out
}

// withoutName is the view's query without the name filter and the page.
func (v rankingView) withoutName() url.Values {
	q := v.Query
	q.Name, q.Page = "", 0
	return q.values()
}
