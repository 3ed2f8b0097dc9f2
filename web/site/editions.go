package site

import (
	"context"
	"net/http"
	"strconv"

	"github.com/a-h/templ"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/ui"
)

// editionRow is one edition in the list.
type editionRow struct {
	Number      int
	Href        string
	PublishedOn string
	Publisher   string
	Note        string
	Changes     int
	Proposals   int
}

// editionsView is the model of a ranking's edition list.
type editionsView struct {
	ui.Page
	L            linkSet
	Live         liveUpdates
	Slug         string
	RankingTitle string
	RankingHref  string
	Editions     []editionRow
	Dataset      datasetView // the newest edition's license, citation and schema.org Dataset
}

func buildEditions(ctx context.Context, read *projections.Store, p ui.Page, l linkSet, slug string) (editionsView, error) {
	r, _, err := read.Definition(ctx, slug)
	if err != nil {
		return editionsView{}, err
	}
	list, err := read.Editions(ctx, slug, 1000)
	if err != nil {
		return editionsView{}, err
	}
	v := editionsView{Page: p, L: l, Slug: slug, RankingTitle: r.Title.In(p.Lang), RankingHref: l.Ranking(slug, "", "")}
	v.Page.Title = p.T("public.editions_title") + " · " + v.RankingTitle
	for _, e := range list {
		v.Editions = append(v.Editions, editionRow{Number: e.Number, Href: l.Edition(slug, e.Number),
			PublishedOn: dayText(p, e.PublishedAt), Publisher: e.Publisher, Note: e.Note, Changes: e.Changes,
			Proposals: len(e.Proposals)})
	}
	v.Dataset, err = editionsDataset(ctx, read, p, l, slug)
	return v, err
}

// moveRow is one entry's move in an edition.
type moveRow struct {
	Name   string
	Href   string
	Before string // "" for a new entry
	After  int
	Move   moveView
	Total  string
}

// changeRow is one change in an edition's changelog.
type changeRow struct {
	Entry     string
	EntryHref string // the entry page at the changed value
	Target    string // the criterion or attribute, by name
	Key       string // the target as stored: "score:<criterion>" or "attr:<key>"
	IsScore   bool
	From      string // "—" when there was none
	To        string
	Evidence  []evidenceLink
	AuditHref string
	Proposal  string
}

// evidenceLink is a short link from a change to one evidence item.
//
// A link names its claim in the page's language only: the entry page it
// leads to, where the claim is read, has the other language behind its
// disclosure.
type evidenceLink struct {
	Href  string
	Claim string
}

func scoreText(v *int) string {
	if v == nil {
		return "—"
	}
	return strconv.Itoa(*v)
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// editions serves GET /r/{slug}/editions.
func (s *Site) editions(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	slug := r.PathValue("slug")
	s.servePage(w, r, slug, nil, false, func(p ui.Page, live liveUpdates) (templ.Component, error) {
		l := liveLinks
		l.origin = s.origin
		v, err := buildEditions(ctx, s.read, p, l, slug)
		v.Live = live
		return editionsPage(v), err
	})
}
