package site

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"github.com/a-h/templ"
	"github.com/crossrank/crossrank/domain"
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
	IsScore   bool
	From      string // "—" when there was none
	To        string
	Evidence  []evidenceLink
	AuditHref string
	Proposal  string
}

// evidenceLink is a short link from a change to one evidence item.
type evidenceLink struct {
	Href  string
	Claim string
}

// editionView is the model of one edition's changelog.
type editionView struct {
	ui.Page
	L            linkSet
	Live         liveUpdates
	Slug         string
	RankingTitle string
	RankingHref  string
	EditionsHref string
	Number       int
	PublishedOn  string
	Publisher    string
	Note         string
	SnapshotHash string
	Proposals    []choice  // each links to its audit record
	Ranks        []moveRow // the overall ranking after the edition, with moves
	NewEntries   []moveRow
	Scores       []changeRow
	Attributes   []changeRow
	Methodology  []string // the methodology changes the edition published, worded
	PrevHref     string
	NextHref     string
}

func buildEdition(ctx context.Context, read *projections.Store, p ui.Page, l linkSet, slug string, n int) (editionView, error) {
	r, latest, err := read.Definition(ctx, slug)
	if err != nil {
		return editionView{}, err
	}
	d, err := read.Edition(ctx, slug, n)
	if err != nil {
		return editionView{}, err
	}
	v := editionView{Page: p, L: l, Slug: slug, RankingTitle: r.Title.In(p.Lang), RankingHref: l.Ranking(slug, "", ""),
		EditionsHref: l.Editions(slug), Number: n, PublishedOn: dayText(p, d.PublishedAt), Publisher: d.Publisher,
		Note: d.Note, SnapshotHash: d.SnapshotHash}
	v.Page.Title = p.T("public.edition_title", n) + " · " + v.RankingTitle
	if n > 1 {
		v.PrevHref = l.Edition(slug, n-1)
	}
	if n < latest {
		v.NextHref = l.Edition(slug, n+1)
	}
	if v.Methodology, err = methodChangesOf(ctx, read, p, slug, n, r); err != nil {
		return v, err
	}
	for _, id := range d.Proposals {
		v.Proposals = append(v.Proposals, choice{Value: id, Label: id, Href: l.Audit(id)})
	}
	for _, m := range d.Moves {
		row := moveRow{Name: m.Name.In(p.Lang), Href: l.Entry(slug, m.Entry, ""), After: m.After, Total: totalText(m.AfterTotal)}
		delta, ok := m.Delta()
		if !ok {
			row.Move = moveOf(p, map[string]*int{m.Entry: nil}, m.Entry)
			v.Ranks = append(v.Ranks, row)
			v.NewEntries = append(v.NewEntries, row)
			continue
		}
		row.Before = strconv.Itoa(*m.Before)
		row.Move = moveOf(p, map[string]*int{m.Entry: &delta}, m.Entry)
		v.Ranks = append(v.Ranks, row)
	}
	for _, c := range d.Changes {
		row := changeRow{Entry: c.EntryName.In(p.Lang), Proposal: c.Proposal, AuditHref: l.Audit(c.Proposal)}
		for _, e := range c.Evidence {
			row.Evidence = append(row.Evidence, evidenceLink{Href: l.Entry(slug, c.Entry, evidenceAnchor(e.Proposal, e.ID)), Claim: e.Claim})
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
			row.From, row.To = scoreText(c.FromScore), scoreText(c.ToScore)
			if c.ToScore == nil && c.FromScore != nil && !r.HasCriterion(c.Key()) {
				row.To = p.T("public.score_cleared") // a methodology retired the criterion
			}
			row.EntryHref = l.Entry(slug, c.Entry, scoreAnchor(c.Key()))
			v.Scores = append(v.Scores, row)
		default:
			row.Target = c.Key()
			labels := func(t []string) string { return strings.Join(t, p.T("public.list_sep")) }
			if def, ok := r.Attribute(c.Key()); ok {
				row.Target = def.Name.In(p.Lang)
				labels = func(t []string) string { return strings.Join(tagLabels(p, def.Values, t), p.T("public.list_sep")) }
			}
			row.From, row.To = orDash(labels(c.FromTags)), orDash(labels(c.ToTags))
			row.EntryHref = l.Entry(slug, c.Entry, attrAnchor(c.Key()))
			v.Attributes = append(v.Attributes, row)
		}
	}
	return v, nil
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

// edition serves GET /r/{slug}/editions/{n}.
func (s *Site) edition(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	slug := r.PathValue("slug")
	n, err := strconv.Atoi(r.PathValue("n"))
	if err != nil || n < 1 {
		ui.Fail(w, r, domain.ErrNotFound)
		return
	}
	s.servePage(w, r, slug, nil, false, func(p ui.Page, live liveUpdates) (templ.Component, error) {
		l := liveLinks
		l.bundles = s.bundles != nil
		l.captures = s.captures != nil
		v, err := buildEdition(ctx, s.read, p, l, slug, n)
		v.Live = live
		return editionPage(v), err
	})
}
