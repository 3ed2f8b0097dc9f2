package site

import (
	"net/url"
	"slices"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// viewQuery is what a reader chose on a ranking page: a scenario, a
// category and answers to the needs-filters. Unknown values are dropped,
// so any shared URL shows a valid view.
type viewQuery struct {
	Scenario string
	Category string
	Needs    map[string]string // filter key → option value
	All      bool              // every row, not only the first pageRows
	// Independent counts only the scores independent evidence backs
	// (?evidence=independent; see domain.IndependentEdition).
	Independent bool
}

// reserved are query names that are not needs.
var reserved = map[string]bool{"scenario": true, "category": true, "lang": true, "all": true, "evidence": true}

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
	out.All = q.Get("all") == "1"
	out.Independent = q.Get("evidence") == independentEvidence
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
	if q.All {
		v.Set("all", "1")
	}
	if q.Independent {
		v.Set("evidence", independentEvidence)
	}
	return v
}
