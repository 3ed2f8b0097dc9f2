package site

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/atom"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/i18n"
	"github.com/crossrank/crossrank/web/ui"
)

// The Atom feed (RFC 4287): one entry per published edition, newest
// first, of one ranking or of all. Ids are URNs, so they stay the same
// whatever host or folder serves the feed.

// feedOf builds the feed of ranking ("" for all) in lang. l builds the
// links from the feed's own address; abs makes them absolute when served.
func feedOf(ctx context.Context, read *projections.Store, lang, ranking string, l linkSet, abs func(string) string) ([]byte, error) {
	list, err := read.PublicRankings(ctx)
	if err != nil {
		return nil, err
	}
	titles := map[string]string{}
	for _, r := range list {
		titles[r.Slug] = r.Title.In(lang)
	}
	f := atom.Feed{Lang: atom.Lang(lang), ID: "urn:crossrank:feed", Title: i18n.T(lang, "public.feed_title_all"),
		Author: atom.Person{Name: "Crossrank"}, Updated: "1970-01-01T00:00:00Z"}
	self, alt := l.Feed(""), l.Home()
	if ranking != "" {
		if _, ok := titles[ranking]; !ok {
			return nil, projections.ErrNotFound
		}
		f.ID, f.Title = "urn:crossrank:feed:"+ranking, titles[ranking]+" · "+i18n.T(lang, "public.editions_title")
		self, alt = l.Feed(ranking), l.Editions(ranking)
	}
	f.Links = []atom.Link{{Rel: "self", Type: "application/atom+xml", Href: abs(self)}, {Rel: "alternate", Type: "text/html", Href: abs(alt)}}
	eds, err := read.Editions(ctx, ranking, 100)
	if err != nil {
		return nil, err
	}
	for i, e := range eds {
		at := atom.Time(e.PublishedAt)
		if i == 0 {
			f.Updated = at
		}
		summary := i18n.T(lang, "public.feed_summary", i18n.Plural(lang, "public.feed_changes", e.Changes),
			i18n.Plural(lang, "public.feed_proposals", len(e.Proposals)))
		if e.Note != "" {
			summary = e.Note + " — " + summary
		}
		f.Entries = append(f.Entries, atom.Entry{
			ID:    "urn:crossrank:edition:" + e.Ranking + ":" + strconv.Itoa(e.Number),
			Title: titles[e.Ranking] + " · " + i18n.T(lang, "public.edition_title", e.Number), Updated: at, Published: at,
			Links:   []atom.Link{{Rel: "alternate", Type: "text/html", Href: abs(l.Edition(e.Ranking, e.Number))}},
			Author:  atom.Person{Name: e.Publisher},
			Summary: atom.Text{Type: "text", Body: summary},
		})
	}
	return f.Marshal()
}

// feed serves GET /feed.atom (?ranking= narrows it) and
// GET /r/{slug}/feed.atom.
func (s *Site) feed(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	ranking := r.PathValue("slug")
	var query url.Values
	if ranking == "" {
		ranking = r.URL.Query().Get("ranking")
		if ranking != "" {
			query = url.Values{"ranking": {ranking}}
		}
	}
	mark, err := s.read.EditionMark(ctx, ranking)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	lang := httpx.Lang(ctx)
	if s.fresh(w, r, validator{mark: mark, lang: lang, kind: "feed", query: query}) {
		return
	}
	// The public address when one is configured, never the Host a client
	// sent: a feed's links leave the site (readers, aggregators, caches).
	origin := s.requestOrigin(r)
	abs := func(p string) string { return origin + p }
	body, err := feedOf(ctx, s.read, lang, ranking, liveLinks, abs)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/atom+xml; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
}
