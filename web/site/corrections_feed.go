package site

import (
	"net/http"

	"github.com/crossrank/crossrank/web/atom"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/i18n"
	"github.com/crossrank/crossrank/web/ui"
)

// The corrections log as an Atom feed: the newest page of decisions, one
// entry per report. Like the page it changes with each triage, so it is
// read on each request and never enters the page cache. Ids are URNs of
// the report, so a feed reader keeps one item per report whatever host
// serves it; the reporter is never named (no read model holds them).

// correctionsFeed serves GET /r/{slug}/corrections.atom.
func (s *Site) correctionsFeed(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	slug := r.PathValue("slug")
	log, def, err := correctionsOf(ctx, s.read, slug, r)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	lang := httpx.Lang(ctx)
	scheme := "http"
	if s.secure || r.TLS != nil {
		scheme = "https"
	}
	abs := func(p string) string { return scheme + "://" + r.Host + p }
	l := liveLinks
	title := def.Title.In(lang)
	f := atom.Feed{Lang: atom.Lang(lang), ID: "urn:crossrank:corrections:" + slug,
		Title:  title + " · " + i18n.T(lang, "corrections.title"),
		Author: atom.Person{Name: "Crossrank"}, Updated: "1970-01-01T00:00:00Z",
		Links: []atom.Link{
			{Rel: "self", Type: "application/atom+xml", Href: abs(l.CorrectionsFeed(slug))},
			{Rel: "alternate", Type: "text/html", Href: abs(l.Corrections(slug))},
		}}
	for i, c := range log.Corrections {
		at := atom.Time(c.DecidedAt)
		if i == 0 {
			f.Updated = at
		}
		href := l.Entry(slug, c.Entry, "")
		if e := editionHref(l, slug, c.Edition); e != "" {
			href = e
		}
		f.Entries = append(f.Entries, atom.Entry{
			ID:      "urn:crossrank:report:" + c.ID,
			Title:   correctionOutcome(lang, c) + " · " + c.Entry,
			Updated: at, Published: at,
			Links:   []atom.Link{{Rel: "alternate", Type: "text/html", Href: abs(href)}},
			Author:  atom.Person{Name: "Crossrank"},
			Summary: atom.Text{Type: "text", Body: i18n.T(lang, "report.kind."+c.Kind) + " — " + c.Text},
		})
	}
	body, err := f.Marshal()
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/atom+xml; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
}

// correctionOutcome words a decision as the page does.
func correctionOutcome(lang string, c Correction) string {
	switch c.Status {
	case "accepted":
		s := i18n.T(lang, "corrections.accepted", c.Proposal)
		if c.Edition > 0 {
			return s + " · " + i18n.T(lang, "corrections.published_in", c.Edition)
		}
		return s
	case "declined":
		return i18n.T(lang, "corrections.declined", c.Reason)
	}
	return i18n.T(lang, "corrections.duplicate", c.DuplicateOf)
}

// CorrectionsFeed is the Atom feed of a ranking's corrections log; "" in a
// static export, as the log is.
func (l linkSet) CorrectionsFeed(slug string) string {
	if l.static {
		return ""
	}
	return "/r/" + slug + "/corrections.atom"
}
