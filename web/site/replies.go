package site

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/ui"
)

// The vendor's right of reply on the public site: its statements on the
// entry page (and in the entry's JSON), and the entry's contact timeline.
// Both change between editions, so they are the live site's only: a
// static export, which holds editions, leaves them out, and no snapshot or
// hash reads them.

// replyView is one statement on the entry page.
type replyView struct {
	projections.Reply
	On string // the day it was written, in the reader's language
}

// replies returns the entry's statements for its page.
func (s *Site) replies(ctx context.Context, p ui.Page, slug, entry string) ([]replyView, error) {
	rows, err := s.read.Replies(ctx, slug, entry)
	if err != nil {
		return nil, err
	}
	out := make([]replyView, 0, len(rows))
	for _, r := range rows {
		out = append(out, replyView{Reply: r, On: dayText(p, r.WrittenAt)})
	}
	return out, nil
}

// contactPerPage is how many rows a page of the contact timeline holds.
const contactPerPage = 100

// Contact is one page of an entry's contact timeline (the JSON form too).
// It names the vendor by its account's display name and nothing else.
type Contact struct {
	Ranking string                     `json:"ranking"`
	Entry   string                     `json:"entry"`
	Events  []projections.ContactEvent `json:"events"`
	Total   int                        `json:"total"`
	Page    int                        `json:"page"`
	Pages   int                        `json:"pages"`
	PerPage int                        `json:"per_page"`
}

// contactOf reads one page of the timeline of a public entry (404 for an
// entry not published, and for a page past the last).
func (s *Site) contactOf(ctx context.Context, slug, entry string, r *http.Request) (Contact, *domain.Ranking, error) {
	def, _, err := s.definition(ctx, slug)
	if err != nil {
		return Contact{}, nil, err
	}
	e, err := s.read.Entry(ctx, slug, entry)
	if err != nil {
		return Contact{}, nil, err
	}
	if !e.Published {
		return Contact{}, nil, projections.ErrNotFound
	}
	page := 1
	if q := r.URL.Query().Get("page"); q != "" {
		n, err := strconv.Atoi(q)
		if err != nil || n < 1 {
			return Contact{}, nil, &httpx.BadField{Field: "page", Code: "field.whole_number"}
		}
		page = n
	}
	rows, total, err := s.read.ContactTimeline(ctx, slug, entry, contactPerPage, (page-1)*contactPerPage)
	if err != nil {
		return Contact{}, nil, err
	}
	out := Contact{Ranking: slug, Entry: entry, Events: rows, Total: total, Page: page,
		Pages: max(1, (total+contactPerPage-1)/contactPerPage), PerPage: contactPerPage}
	if page > out.Pages {
		return Contact{}, nil, projections.ErrNotFound
	}
	return out, def, nil
}

// contact serves GET /r/{slug}/e/{entry}/contact, and its JSON at
// GET /r/{slug}/e/{entry}/contact.json.
func (s *Site) contact(w http.ResponseWriter, r *http.Request) {
	slug, entry := r.PathValue("slug"), r.PathValue("entry")
	c, def, err := s.contactOf(r.Context(), slug, entry, r)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	if strings.HasSuffix(r.URL.Path, ".json") {
		httpx.WriteJSON(w, http.StatusOK, c)
		return
	}
	p := ui.PageOf(r, "", "rankings")
	l := liveLinks
	l.origin = s.origin
	v := contactView{Page: p, L: l, Entry: entry, RankingTitle: def.Title.In(p.Lang), RankingHref: l.Ranking(slug, "", ""),
		EntryHref: l.Entry(slug, entry, "")}
	v.Page.Title = p.T("contact.title") + " · " + entry
	for _, e := range c.Events {
		v.Rows = append(v.Rows, contactRow{ContactEvent: e, On: dayText(p, e.At),
			Words: p.T("contact.kind."+e.Kind, e.Vendor, e.Subject, e.Detail)})
	}
	if c.Page > 1 {
		v.PrevHref = "?page=" + strconv.Itoa(c.Page-1)
	}
	if c.Page < c.Pages {
		v.NextHref = "?page=" + strconv.Itoa(c.Page+1)
	}
	ui.Render(w, r, http.StatusOK, contactPage(v))
}

// contactView is the model of the contact timeline page.
type contactView struct {
	ui.Page
	L                      linkSet
	Live                   liveUpdates
	Entry                  string
	RankingTitle           string
	RankingHref, EntryHref string
	Rows                   []contactRow
	PrevHref, NextHref     string
}

type contactRow struct {
	projections.ContactEvent
	On    string
	Words string // what happened, in the reader's language
}
