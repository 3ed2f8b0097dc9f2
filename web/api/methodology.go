package api

import (
	"net/http"

	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/ui"
)

// Methodology is a ranking's current definition: what a client needs to
// read its standings, choose a scenario, ask its needs questions and
// propose changes. Texts carry both languages ({"zh": …, "en": …}); the
// members keep the field names of the ranking's events.
type Methodology struct {
	Ranking     string                `json:"ranking"`
	Title       events.Text           `json:"title"`
	Description events.Text           `json:"description"`
	Edition     int                   `json:"edition"` // the latest published edition; 0 before the first
	Categories  []events.Category     `json:"categories"`
	Criteria    []events.Criterion    `json:"criteria"` // weights sum to 100
	Attributes  []events.AttributeDef `json:"attributes"`
	Scenarios   []events.Scenario     `json:"scenarios"`
	Filters     []events.Filter       `json:"filters"` // the needs questions
	Quorum      events.QuorumPolicy   `json:"quorum"`
}

// methodology answers GET /api/v1/rankings/{slug}/methodology from the
// read models, as the site's methodology page reads it. It is a public
// read and belongs with the site's; it lives here while the site package
// is being reworked, and answers without the site's caching validators
// (a definition is small and read rarely).
func methodology(read ReadModels) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		slug := r.PathValue("slug")
		rk, edition, err := read.Definition(r.Context(), slug)
		if err != nil {
			ui.Fail(w, r, err)
			return
		}
		httpx.WriteJSON(w, http.StatusOK, Methodology{Ranking: slug, Title: rk.Title, Description: rk.Description,
			Edition: edition, Categories: orEmpty(rk.Categories), Criteria: orEmpty(rk.Criteria),
			Attributes: orEmpty(rk.Attributes), Scenarios: orEmpty(rk.Scenarios), Filters: orEmpty(rk.Filters),
			Quorum: rk.Quorum})
	}
}

// orEmpty answers an empty list as [] rather than null.
func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
