package web

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/ui"
)

// pubEditionRow is one edition in the list.
type pubEditionRow struct {
	Number      int
	Href        string
	PublishedOn string
	Publisher   string
	Note        string
	Changes     int
	Proposals   int
}

// pubEditionsView is the model of a ranking's edition list.
type pubEditionsView struct {
	ui.Page
	L            pubLinks
	Live         pubLive
	Slug         string
	RankingTitle string
	RankingHref  string
	Editions     []pubEditionRow
}

func buildEditions(ctx context.Context, read *projections.Store, p ui.Page, l pubLinks, slug string) (pubEditionsView, error) {
	r, _, err := read.Definition(ctx, slug)
	if err != nil {
		return pubEditionsView{}, err
	}
	list, err := read.Editions(ctx, slug, 1000)
	if err != nil {
		return pubEditionsView{}, err
	}
	v := pubEditionsView{Page: p, L: l, Slug: slug, RankingTitle: r.Title.In(p.Lang), RankingHref: l.Ranking(slug, "", "")}
	v.Page.Title = p.T("public.editions_title") + " · " + v.RankingTitle
	for _, e := range list {
		v.Editions = append(v.Editions, pubEditionRow{Number: e.Number, Href: l.Edition(slug, e.Number),
			PublishedOn: pubDay(p, e.PublishedAt), Publisher: e.Publisher, Note: e.Note, Changes: e.Changes,
			Proposals: len(e.Proposals)})
	}
	return v, nil
}

// pubMoveRow is one entry's move in an edition.
type pubMoveRow struct {
	Name   string
	Href   string
	Before string // "" for a new entry
	After  int
	Move   pubMove
	Total  string
}

// pubChangeRow is one change in an edition's changelog.
type pubChangeRow struct {
	Entry     string
	EntryHref string // the entry page at the changed value
	Target    string // the criterion or attribute, by name
	IsScore   bool
	From      string // "—" when there was none
	To        string
	Evidence  []pubEvidenceLink
	AuditHref string
	Proposal  string
}

// pubEvidenceLink is a short link from a change to one evidence item.
type pubEvidenceLink struct {
	Href  string
	Claim string
}

// pubEditionView is the model of one edition's changelog.
type pubEditionView struct {
	ui.Page
	L            pubLinks
	Live         pubLive
	Slug         string
	RankingTitle string
	RankingHref  string
	EditionsHref string
	Number       int
	PublishedOn  string
	Publisher    string
	Note         string
	SnapshotHash string
	Proposals    []pubChoice  // each links to its audit record
	Ranks        []pubMoveRow // the overall ranking after the edition, with moves
	NewEntries   []pubMoveRow
	Scores       []pubChangeRow
	Attributes   []pubChangeRow
	PrevHref     string
	NextHref     string
}

func buildEdition(ctx context.Context, read *projections.Store, p ui.Page, l pubLinks, slug string, n int) (pubEditionView, error) {
	r, latest, err := read.Definition(ctx, slug)
	if err != nil {
		return pubEditionView{}, err
	}
	d, err := read.Edition(ctx, slug, n)
	if err != nil {
		return pubEditionView{}, err
	}
	v := pubEditionView{Page: p, L: l, Slug: slug, RankingTitle: r.Title.In(p.Lang), RankingHref: l.Ranking(slug, "", ""),
		EditionsHref: l.Editions(slug), Number: n, PublishedOn: pubDay(p, d.PublishedAt), Publisher: d.Publisher,
		Note: d.Note, SnapshotHash: d.SnapshotHash}
	v.Page.Title = p.T("public.edition_title", n) + " · " + v.RankingTitle
	if n > 1 {
		v.PrevHref = l.Edition(slug, n-1)
	}
	if n < latest {
		v.NextHref = l.Edition(slug, n+1)
	}
	for _, id := range d.Proposals {
		v.Proposals = append(v.Proposals, pubChoice{Value: id, Label: id, Href: l.Audit(id)})
	}
	for _, m := range d.Moves {
		row := pubMoveRow{Name: m.Name.In(p.Lang), Href: l.Entry(slug, m.Entry, ""), After: m.After, Total: pubTotalText(m.AfterTotal)}
		delta, ok := m.Delta()
		if !ok {
			row.Move = pubMoveOf(p, map[string]*int{m.Entry: nil}, m.Entry)
			v.Ranks = append(v.Ranks, row)
			v.NewEntries = append(v.NewEntries, row)
			continue
		}
		row.Before = strconv.Itoa(*m.Before)
		row.Move = pubMoveOf(p, map[string]*int{m.Entry: &delta}, m.Entry)
		v.Ranks = append(v.Ranks, row)
	}
	for _, c := range d.Changes {
		row := pubChangeRow{Entry: c.EntryName.In(p.Lang), Proposal: c.Proposal, AuditHref: l.Audit(c.Proposal)}
		for _, e := range c.Evidence {
			row.Evidence = append(row.Evidence, pubEvidenceLink{Href: l.Entry(slug, c.Entry, pubEvidenceAnchor(e.Proposal, e.ID)), Claim: e.Claim})
		}
		switch c.Kind() {
		case "score":
			row.IsScore = true
			row.Target = c.Key()
			for _, cr := range r.Criteria {
				if cr.Slug == c.Key() {
					row.Target = cr.Name.In(p.Lang)
				}
			}
			row.From, row.To = pubScoreText(c.FromScore), pubScoreText(c.ToScore)
			row.EntryHref = l.Entry(slug, c.Entry, pubScoreAnchor(c.Key()))
			v.Scores = append(v.Scores, row)
		default:
			row.Target = c.Key()
			labels := func(t []string) string { return strings.Join(t, p.T("public.list_sep")) }
			if def, ok := r.Attribute(c.Key()); ok {
				row.Target = def.Name.In(p.Lang)
				labels = func(t []string) string { return strings.Join(pubTagLabels(p, def.Values, t), p.T("public.list_sep")) }
			}
			row.From, row.To = pubOrDash(labels(c.FromTags)), pubOrDash(labels(c.ToTags))
			row.EntryHref = l.Entry(slug, c.Entry, pubAttrAnchor(c.Key()))
			v.Attributes = append(v.Attributes, row)
		}
	}
	return v, nil
}

func pubScoreText(v *int) string {
	if v == nil {
		return "—"
	}
	return strconv.Itoa(*v)
}

func pubOrDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// publicEditions serves GET /r/{slug}/editions.
func (s *Server) publicEditions(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	slug := r.PathValue("slug")
	s.servePublicPage(w, r, slug, nil, false, func(p ui.Page, live pubLive) (pubPage, error) {
		v, err := buildEditions(ctx, s.read, p, liveLinks, slug)
		v.Live = live
		return pubEditionsPage(v), err
	})
}

// publicEdition serves GET /r/{slug}/editions/{n}.
func (s *Server) publicEdition(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	slug := r.PathValue("slug")
	n, err := strconv.Atoi(r.PathValue("n"))
	if err != nil || n < 1 {
		ui.Fail(w, r, domain.ErrNotFound)
		return
	}
	s.servePublicPage(w, r, slug, nil, false, func(p ui.Page, live pubLive) (pubPage, error) {
		v, err := buildEdition(ctx, s.read, p, liveLinks, slug, n)
		v.Live = live
		return pubEditionPage(v), err
	})
}
