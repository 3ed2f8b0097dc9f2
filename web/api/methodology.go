package api

import (
	"net/http"

	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/projections"
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
	License     string                `json:"license,omitempty"` // SPDX identifier
	// Illustrative marks scores that illustrate the tool rather than judge.
	Illustrative bool `json:"illustrative,omitempty"`
	// History lists the editions that published the methodology, oldest first.
	History []MethodologyEdition `json:"history"`
}

// MethodologyEdition is one edition that published the methodology: the
// proposal it published, what changed, when and by whom.
type MethodologyEdition struct {
	Edition  int                        `json:"edition"`
	Proposal string                     `json:"proposal"`
	Changes  []events.MethodologyChange `json:"changes"`
	At       string                     `json:"at"`
	Actor    string                     `json:"actor"`
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
		if err == nil && edition < 1 {
			// Proposed by a proposal still open: not public yet.
			err = projections.ErrNotFound
		}
		if err != nil {
			ui.Fail(w, r, err)
			return
		}
		hist, err := read.MethodologyHistory(r.Context(), slug)
		if err != nil {
			ui.Fail(w, r, err)
			return
		}
		out := Methodology{Ranking: slug, Title: rk.Title, Description: rk.Description,
			Edition: edition, Categories: orEmpty(rk.Categories), Criteria: orEmpty(rk.Criteria),
			Attributes: orEmpty(rk.Attributes), Scenarios: orEmpty(rk.Scenarios), Filters: orEmpty(rk.Filters),
			Quorum: rk.Quorum, License: rk.License, Illustrative: rk.Illustrative, History: []MethodologyEdition{}}
		for _, h := range hist {
			out.History = append(out.History, MethodologyEdition{Edition: h.Edition, Proposal: h.Proposal,
				Changes: orEmpty(h.Changes), At: h.At, Actor: h.Actor})
		}
		httpx.WriteJSON(w, http.StatusOK, out)
	}
}

// orEmpty answers an empty list as [] rather than null.
func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
