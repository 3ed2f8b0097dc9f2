package api

import (
	"net/http"
	"slices"
	"strconv"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/ui"
)

// SearchResults is GET /api/v1/search: one page of the hits of one kind,
// best first, and how many there are. Next is the following page's
// number; absent on the last page. More reports that more than Total
// matched (projections.SearchCandidates): Total counts the best of them.
type SearchResults struct {
	Query string      `json:"q"`
	Kind  string      `json:"kind"`
	Total int         `json:"total"`
	More  bool        `json:"more,omitempty"`
	Page  int         `json:"page"`
	Next  int         `json:"next,omitempty"`
	Hits  []SearchHit `json:"hits"`
}

// SearchHit is one entry, proposal or evidence item a search found.
type SearchHit struct {
	Ranking  string       `json:"ranking"`
	Entry    string       `json:"entry"`
	Name     *events.Text `json:"name,omitempty"`     // entries
	Proposal string       `json:"proposal,omitempty"` // proposals and evidence
	Evidence string       `json:"evidence,omitempty"` // evidence
	Title    string       `json:"title,omitempty"`    // a proposal's title
	Claim    *events.Text `json:"claim,omitempty"`    // an evidence item's, both languages
	Status   string       `json:"status,omitempty"`   // the proposal's
	Source   string       `json:"source_url,omitempty"`
	// Snippet is the text around what matched, in parts.
	Snippet []projections.SnippetPart `json:"snippet,omitempty"`
}

// ?limit= is searchDefaultLimit when absent, capped at searchMaxLimit.
const (
	searchDefaultLimit = 50
	searchMaxLimit     = 200
)

// search answers GET /api/v1/search?q=&kind=&ranking=&page=&limit=.
func search(read ReadModels) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		out := SearchResults{Query: q.Get("q"), Kind: q.Get("kind"), Page: 1, Hits: []SearchHit{}}
		if out.Kind == "" {
			out.Kind = projections.SearchEntry
		}
		kinds := []string{projections.SearchEntry, projections.SearchProposal, projections.SearchEvidence}
		if !slices.Contains(kinds, out.Kind) {
			ui.Fail(w, r, domain.Invalid("kind", "field.unknown_search_kind", domain.Args{"value": out.Kind}))
			return
		}
		if projections.SearchText(out.Query) == "" {
			ui.Fail(w, r, domain.Invalid("q", "field.required", nil))
			return
		}
		limit, err := intParam(q.Get("limit"), searchDefaultLimit, "limit")
		if err != nil {
			ui.Fail(w, r, err)
			return
		}
		limit = min(limit, searchMaxLimit)
		if out.Page, err = intParam(q.Get("page"), 1, "page"); err != nil {
			ui.Fail(w, r, err)
			return
		}
		res, err := read.Search(r.Context(), projections.SearchQuery{Text: out.Query, Kind: out.Kind,
			Ranking: q.Get("ranking"), Limit: limit, Offset: (out.Page - 1) * limit})
		if err != nil {
			ui.Fail(w, r, err)
			return
		}
		out.Total, out.More = res.Total, res.More
		if out.Page*limit < res.Total {
			out.Next = out.Page + 1
		}
		for _, h := range res.Hits {
			sh := SearchHit{Ranking: h.Ranking, Entry: h.Entry, Proposal: h.Proposal, Evidence: h.Evidence,
				Title: h.Title, Status: h.Status, Source: h.Source, Snippet: h.Snippet}
			switch h.Kind {
			case projections.SearchEntry:
				sh.Name = &h.Name
			case projections.SearchEvidence:
				sh.Claim = &h.Claim
			}
			out.Hits = append(out.Hits, sh)
		}
		httpx.WriteJSON(w, http.StatusOK, out)
	}
}

// intParam reads a positive whole number from a query parameter: def
// when absent; anything else is malformed (400, naming it).
func intParam(s string, def int, name string) (int, error) {
	if s == "" {
		return def, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return 0, &httpx.BadField{Field: name, Code: "field.whole_number"}
	}
	return n, nil
}
