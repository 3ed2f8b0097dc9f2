package site

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"

	"github.com/crossrank/crossrank/web/ui"
)

// The read side of the JSON API. Field names are snake_case and stable;
// texts carry both languages ({"zh": …, "en": …}); totals are integers
// 0–1000 (Σ weight·score), as hashed in snapshots. The same functions build
// the API's answers and the static export's .json files, byte for byte.

// marshalJSON encodes an API answer: indented, with a final newline, so the
// API and the export's files are the same bytes.
func marshalJSON(v any) ([]byte, error) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// serveAPI answers a public API read with validators (see fresh).
// query is the canonical query the answer reads (see validator.query).
func (s *Site) serveAPI(w http.ResponseWriter, r *http.Request, ranking string, query url.Values, daily bool, build func(ctx context.Context) (any, error)) {
	s.serveAPIOf(w, r, ranking, query, daily, "", build)
}

// serveAPIOf is serveAPI for an answer that also holds what extra
// versions (see validator.extra).
func (s *Site) serveAPIOf(w http.ResponseWriter, r *http.Request, ranking string, query url.Values, daily bool, extra string, build func(ctx context.Context) (any, error)) {
	ctx := r.Context()
	mark, err := s.editionMark(ctx, ranking)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	pc := validator{mark: mark, daily: daily, kind: "api", query: query, extra: extra}
	if s.fresh(w, r, pc) {
		return
	}
	if key, ok := s.bodyKey(r, pc, liveUpdates{}); ok {
		s.serveJSONBody(w, r, key, build)
		return
	}
	v, err := build(ctx)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	body, err := marshalJSON(v)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
}

func (s *Site) apiRankings(w http.ResponseWriter, r *http.Request) {
	s.serveAPI(w, r, "", nil, false, func(ctx context.Context) (any, error) { return apiRankingsOf(ctx, s.read) })
}

func (s *Site) apiRanking(w http.ResponseWriter, r *http.Request) {
	slug := r.PathValue("slug")
	// The query is checked before the cache is asked: a canonical key
	// would otherwise answer an unknown need from the body without it.
	def, _, err := s.definition(r.Context(), slug)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	q, err := apiQueryOf(def, r.URL.Query())
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	q.Category, q.Name, q.Page = "", "", 0 // the API lists every category
	page, err := standingPageOf(r.URL.Query())
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	query := q.values()
	page.addTo(query)
	s.serveAPI(w, r, slug, query, false, func(ctx context.Context) (any, error) {
		return apiStandingOf(ctx, s.read, slug, q, page)
	})
}

func (s *Site) apiEditions(w http.ResponseWriter, r *http.Request) {
	slug := r.PathValue("slug")
	s.serveAPI(w, r, slug, nil, false, func(ctx context.Context) (any, error) { return apiEditionsOf(ctx, s.read, slug) })
}

// nonNil returns a copy of s that encodes as [] when s is empty.
func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return slices.Clone(s)
}
