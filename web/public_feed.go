package web

import (
	"context"
	"encoding/xml"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/ui"
)

// The Atom feed (RFC 4287): one entry per published edition, newest
// first, of one ranking or of all. Ids are URNs, so they stay the same
// whatever host or folder serves the feed.

type pubAtomFeed struct {
	XMLName xml.Name       `xml:"http://www.w3.org/2005/Atom feed"`
	Lang    string         `xml:"xml:lang,attr"`
	ID      string         `xml:"id"`
	Title   string         `xml:"title"`
	Updated string         `xml:"updated"`
	Links   []pubAtomLink  `xml:"link"`
	Author  pubAtomPerson  `xml:"author"`
	Entries []pubAtomEntry `xml:"entry"`
}

type pubAtomLink struct {
	Rel  string `xml:"rel,attr"`
	Type string `xml:"type,attr,omitempty"`
	Href string `xml:"href,attr"`
}

type pubAtomPerson struct {
	Name string `xml:"name"`
}

type pubAtomText struct {
	Type string `xml:"type,attr"`
	Body string `xml:",chardata"`
}

type pubAtomEntry struct {
	ID        string        `xml:"id"`
	Title     string        `xml:"title"`
	Updated   string        `xml:"updated"`
	Published string        `xml:"published"`
	Links     []pubAtomLink `xml:"link"`
	Author    pubAtomPerson `xml:"author"`
	Summary   pubAtomText   `xml:"summary"`
}

// pubFeedOf builds the feed of ranking ("" for all) in lang. l builds the
// links from the feed's own address; abs makes them absolute when served.
func pubFeedOf(ctx context.Context, read *projections.Store, lang, ranking string, l pubLinks, abs func(string) string) ([]byte, error) {
	list, err := read.Rankings(ctx)
	if err != nil {
		return nil, err
	}
	titles := map[string]string{}
	for _, r := range list {
		titles[r.Slug] = r.Title.In(lang)
	}
	f := pubAtomFeed{Lang: pubHTMLLang(lang), ID: "urn:crossrank:feed", Title: T(lang, "public.feed_title_all"),
		Author: pubAtomPerson{Name: "Crossrank"}, Updated: "1970-01-01T00:00:00Z"}
	self, alt := l.Feed(""), l.Home()
	if ranking != "" {
		if _, ok := titles[ranking]; !ok {
			return nil, projections.ErrNotFound
		}
		f.ID, f.Title = "urn:crossrank:feed:"+ranking, titles[ranking]+" · "+T(lang, "public.editions_title")
		self, alt = l.Feed(ranking), l.Editions(ranking)
	}
	f.Links = []pubAtomLink{{Rel: "self", Type: "application/atom+xml", Href: abs(self)}, {Rel: "alternate", Type: "text/html", Href: abs(alt)}}
	eds, err := read.Editions(ctx, ranking, 100)
	if err != nil {
		return nil, err
	}
	for i, e := range eds {
		at := pubAtomTime(e.PublishedAt)
		if i == 0 {
			f.Updated = at
		}
		summary := T(lang, "public.feed_summary", e.Changes, len(e.Proposals))
		if e.Note != "" {
			summary = e.Note + " — " + summary
		}
		f.Entries = append(f.Entries, pubAtomEntry{
			ID:    "urn:crossrank:edition:" + e.Ranking + ":" + strconv.Itoa(e.Number),
			Title: titles[e.Ranking] + " · " + T(lang, "public.edition_title", e.Number), Updated: at, Published: at,
			Links:   []pubAtomLink{{Rel: "alternate", Type: "text/html", Href: abs(l.Edition(e.Ranking, e.Number))}},
			Author:  pubAtomPerson{Name: e.Publisher},
			Summary: pubAtomText{Type: "text", Body: summary},
		})
	}
	b, err := xml.MarshalIndent(f, "", "  ")
	if err != nil {
		return nil, err
	}
	return append([]byte(xml.Header), append(b, '\n')...), nil
}

// pubAtomTime writes a stored RFC 3339 time as Atom wants it (seconds, UTC).
func pubAtomTime(ts string) string {
	t, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		return ts
	}
	return t.UTC().Format(time.RFC3339)
}

func pubHTMLLang(lang string) string {
	if lang == langZh {
		return "zh-Hans"
	}
	return "en"
}

// publicFeed serves GET /feed.atom (?ranking= narrows it) and
// GET /r/{slug}/feed.atom.
func (s *Server) publicFeed(w http.ResponseWriter, r *http.Request) {
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
	if s.publicFresh(w, r, pubCache{mark: mark, lang: lang, kind: "feed", query: query}) {
		return
	}
	scheme := "http"
	if s.secure || r.TLS != nil {
		scheme = "https"
	}
	abs := func(p string) string { return scheme + "://" + r.Host + p }
	body, err := pubFeedOf(ctx, s.read, lang, ranking, liveLinks, abs)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/atom+xml; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
}
