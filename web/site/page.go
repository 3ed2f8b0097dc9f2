package site

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	"github.com/a-h/templ"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/ui"
)

// servePage answers a public page: 304 when the reader's copy is
// current (see fresh), else the page build returns, in the shell of
// the site. ranking is the ranking whose editions the page shows ("" for
// all); query is the canonical query the page reads (see validator.query;
// nil for none); daily marks pages that show staleness by today's date.
func (s *Site) servePage(w http.ResponseWriter, r *http.Request, ranking string, query url.Values, daily bool, build func(ui.Page, liveUpdates) (templ.Component, error)) {
	s.servePageOf(w, r, ranking, query, daily, "", build)
}

// servePageOf is servePage for a page that also shows what extra
// versions (see validator.extra).
func (s *Site) servePageOf(w http.ResponseWriter, r *http.Request, ranking string, query url.Values, daily bool, extra string, build func(ui.Page, liveUpdates) (templ.Component, error)) {
	mark, err := s.editionMark(r.Context(), ranking)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	pc := validator{mark: mark, lang: httpx.Lang(r.Context()), daily: daily, kind: "page", query: query, extra: extra}
	if s.fresh(w, r, pc) {
		return
	}
	// The live settings are read before the page, so an edition published
	// while it is built is announced rather than missed.
	live := s.liveOf(r.Context(), ranking)
	// The page's own links (the language switch, sign-in) come back to its
	// canonical address: the body is shared by every URL with that key, so
	// it must not carry what the first of them added.
	p := ui.PageOf(r, "", "rankings")
	p.SetURL(&url.URL{Path: r.URL.Path, RawQuery: query.Encode()})
	if key, ok := s.bodyKey(r, pc, live); ok {
		s.serveBody(w, r, key, func() (templ.Component, error) { return build(p, live) })
		return
	}
	c, err := build(p, live)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	ui.Render(w, r, http.StatusOK, c)
}

// liveUpdates is what the page's script needs to follow new editions.
type liveUpdates struct {
	URL     string // the event stream, from the newest edition the page shows
	Ranking string // "" follows every ranking
}

// liveOf returns the live-update settings of a page about ranking: the
// stream resumes after the newest edition published when the page was
// built, so an edition published while the page loads is not missed.
func (s *Site) liveOf(ctx context.Context, ranking string) liveUpdates {
	mark, err := s.editionMark(ctx, "")
	if err != nil {
		return liveUpdates{}
	}
	return liveUpdates{URL: "/events?since=" + strconv.FormatUint(mark.Seq, 10), Ranking: ranking}
}
