package site

import (
	"context"
	"encoding/xml"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/i18n"
	"github.com/crossrank/crossrank/web/ui"
)

// The Atom feed (RFC 4287): one entry per published edition, newest
// first, of one ranking or of all. Ids are URNs, so they stay the same
// whatever host or folder serves the feed.

type atomFeed struct {
	XMLName xml.Name    `xml:"http://www.w3.org/2005/Atom feed"`
	Lang    string      `xml:"xml:lang,attr"`
	ID      string      `xml:"id"`
	Title   string      `xml:"title"`
	Updated string      `xml:"updated"`
	Links   []atomLink  `xml:"link"`
	Author  atomPerson  `xml:"author"`
	Entries []atomEntry `xml:"entry"`
}

type atomLink struct {
	Rel  string `xml:"rel,attr"`
	Type string `xml:"type,attr,omitempty"`
	Href string `xml:"href,attr"`
}

type atomPerson struct {
	Name string `xml:"name"`
}

type atomText struct {
	Type string `xml:"type,attr"`
	Body string `xml:",chardata"`
}

type atomEntry struct {
	ID        string     `xml:"id"`
	Title     string     `xml:"title"`
	Updated   string     `xml:"updated"`
	Published string     `xml:"published"`
	Links     []atomLink `xml:"link"`
	Author    atomPerson `xml:"author"`
	Summary   atomText   `xml:"summary"`
}

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
	f := atomFeed{Lang: htmlLang(lang), ID: "urn:crossrank:feed", Title: i18n.T(lang, "public.feed_title_all"),
		Author: atomPerson{Name: "Crossrank"}, Updated: "1970-01-01T00:00:00Z"}
	self, alt := l.Feed(""), l.Home()
	if ranking != "" {
		if _, ok := titles[ranking]; !ok {
			return nil, projections.ErrNotFound
		}
		f.ID, f.Title = "urn:crossrank:feed:"+ranking, titles[ranking]+" · "+i18n.T(lang, "public.editions_title")
		self, alt = l.Feed(ranking), l.Editions(ranking)
	}
	f.Links = []atomLink{{Rel: "self", Type: "application/atom+xml", Href: abs(self)}, {Rel: "alternate", Type: "text/html", Href: abs(alt)}}
	eds, err := read.Editions(ctx, ranking, 100)
	if err != nil {
		return nil, err
	}
	for i, e := range eds {
		at := atomTime(e.PublishedAt)
		if i == 0 {
			f.Updated = at
		}
		summary := i18n.T(lang, "public.feed_summary", e.Changes, len(e.Proposals))
		if e.Note != "" {
			summary = e.Note + " — " + summary
		}
		f.Entries = append(f.Entries, atomEntry{
			ID:    "urn:crossrank:edition:" + e.Ranking + ":" + strconv.Itoa(e.Number),
			Title: titles[e.Ranking] + " · " + i18n.T(lang, "public.edition_title", e.Number), Updated: at, Published: at,
			Links:   []atomLink{{Rel: "alternate", Type: "text/html", Href: abs(l.Edition(e.Ranking, e.Number))}},
			Author:  atomPerson{Name: e.Publisher},
			Summary: atomText{Type: "text", Body: summary},
		})
	}
	b, err := xml.MarshalIndent(f, "", "  ")
	if err != nil {
		return nil, err
	}
	return append([]byte(xml.Header), append(b, '\n')...), nil
}

// atomTime writes a stored RFC 3339 time as Atom wants it (seconds, UTC).
func atomTime(ts string) string {
	t, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		return ts
	}
	return t.UTC().Format(time.RFC3339)
}

func htmlLang(lang string) string {
	if lang == i18n.Zh {
		return "zh-Hans"
	}
	return "en"
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
	scheme := "http"
	if s.secure || r.TLS != nil {
		scheme = "https"
	}
	abs := func(p string) string { return scheme + "://" + r.Host + p }
	body, err := feedOf(ctx, s.read, lang, ranking, liveLinks, abs)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/atom+xml; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
}
