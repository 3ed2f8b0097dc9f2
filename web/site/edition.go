package site

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/a-h/templ"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/ui"
)

// An edition's page answers "what changed" first: its summary, the top of
// the ranking after it, its largest moves, then its changes grouped by
// entry, a page at a time, filtered by entry and by criterion. Each part
// reads one page from the read models' indexes, so the page of a
// 10,000-entry edition of 80,000 changes is the size of one of 100; the
// whole edition stays a download (ranking.csv, ranking.json, the API).

const (
	// largestMoves is how many of the largest moves the page shows.
	largestMoves = 10
	// editionListCap bounds the edition's lists that are not paged: its
	// new entries (each also marked in the ranking) and its proposals
	// (each also linked from its changes).
	editionListCap = 100
)

// editionQuery is what an edition's page reads from its URL.
type editionQuery struct {
	Page      int
	Entry     string // the entry filter as typed, a slug or a name; "": every entry
	Criterion string // a change target, "score:<criterion>" or "attr:<key>"; "": every one
}

// editionQueryOf reads page, entry and criterion; a criterion that names
// no target at all is a bad field. One that names a target the edition
// did not change matches nothing.
func editionQueryOf(q url.Values) (editionQuery, error) {
	eq := editionQuery{Page: ui.RequestedPage(q), Entry: strings.TrimSpace(q.Get("entry")), Criterion: q.Get("criterion")}
	if eq.Criterion != "" {
		kind, key, _ := strings.Cut(eq.Criterion, ":")
		if (kind != "score" && kind != "attr") || key == "" || !slugLike(key) {
			return eq, &httpx.BadField{Field: "criterion", Code: "field.edition_criterion", Args: domain.Args{"value": eq.Criterion}}
		}
	}
	return eq, nil
}

// slugLike reports whether s is a criterion's or attribute's key: lower
// case letters, digits, '-' and '_'.
func slugLike(s string) bool {
	return !strings.ContainsFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_')
	})
}

// values is the canonical query: defaults dropped.
func (q editionQuery) values() url.Values {
	v := url.Values{}
	if q.Page > 1 {
		v.Set(ui.PageParam, strconv.Itoa(q.Page))
	}
	if q.Entry != "" {
		v.Set("entry", q.Entry)
	}
	if q.Criterion != "" {
		v.Set("criterion", q.Criterion)
	}
	return v
}

// editionStat is one count of the summary.
type editionStat struct {
	Key   string
	Label string
	N     int
}

// changeGroup is one entry's changes on a page, collapsed unless Open.
type changeGroup struct {
	Entry     string
	Name      string
	Href      string
	Move      moveView
	Count     int  // the entry's changes in the whole edition
	Continued bool // the group began on the page before
	Open      bool
	OnlyHref  string // the page filtered to this entry; "" in a static export
	Rows      []changeRow
}

// editionFilter is the GET form over the changes (absent in a static
// export, which has no queries).
type editionFilter struct {
	Action    string
	Entry     string
	Criterion string
	Scores    []choice
	Attrs     []choice
	Active    bool
	ClearHref string
	NoEntry   bool // the entry asked for names no entry
}

// editionView is the model of one edition's page.
type editionView struct {
	ui.Page
	L                linkSet
	Live             liveUpdates
	Slug             string
	RankingTitle     string
	RankingHref      string
	EditionsHref     string
	Number           int
	PublishedOn      string
	Publisher        string
	Note             string
	SnapshotHash     string
	Stats            []editionStat
	Methodology      []string // the methodology changes the edition published, worded
	Ranks            []moveRow
	Ranked           int
	FullRankingHref  string
	FullRankingLabel string
	Largest          []moveRow
	NewEntries       []moveRow
	NewMore          int
	Filter           editionFilter
	Groups           []changeGroup
	Pager            ui.Pager
	Proposals        []choice // each links to its audit record
	ProposalsMore    int
	PrevHref         string
	NextHref         string
}

// changesAnchor is the id of the changes' section: the pager's links and
// the filter land there.
const changesAnchor = "edition-changes"

func buildEdition(ctx context.Context, read *projections.Store, p ui.Page, l linkSet, slug string, n int, q editionQuery, perPage int) (editionView, error) {
	r, latest, err := read.Definition(ctx, slug)
	if err != nil {
		return editionView{}, err
	}
	o, err := read.EditionOverview(ctx, slug, n)
	if err != nil {
		return editionView{}, err
	}
	v := editionView{Page: p, L: l, Slug: slug, RankingTitle: r.Title.In(p.Lang), RankingHref: l.Ranking(slug, "", ""),
		EditionsHref: l.Editions(slug), Number: n, PublishedOn: dayText(p, o.PublishedAt), Publisher: o.Publisher,
		Note: o.Note, SnapshotHash: o.SnapshotHash, Ranked: o.Ranked}
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
	scores, attrs := 0, 0
	for t, c := range o.Targets {
		if strings.HasPrefix(t, "score:") {
			scores += c
		} else {
			attrs += c
		}
	}
	for _, st := range []struct {
		key string
		n   int
	}{{"added", o.EntriesAdded}, {"changed", o.EntriesChanged}, {"up", o.EntriesUp}, {"down", o.EntriesDown},
		{"scores", scores}, {"attributes", attrs}, {"proposals", len(o.Proposals)}, {"methodology", len(v.Methodology)}} {
		v.Stats = append(v.Stats, editionStat{Key: st.key, Label: p.T("edition.stat_" + st.key), N: st.n})
	}
	if n == latest {
		v.FullRankingHref, v.FullRankingLabel = l.Ranking(slug, "", ""), p.T("edition.full_ranking")
	} else {
		v.FullRankingHref, v.FullRankingLabel = l.Download(slug, n, rankingCSVFile), p.T("edition.full_ranking_csv")
	}
	for _, part := range []struct {
		dest *[]moveRow
		read func(context.Context, string, int, int) ([]projections.EditionMove, error)
		rows int
	}{{&v.Ranks, read.EditionRanks, perPage}, {&v.Largest, read.EditionLargestMoves, largestMoves},
		{&v.NewEntries, read.EditionNewEntries, editionListCap}} {
		moves, err := part.read(ctx, slug, n, part.rows)
		if err != nil {
			return v, err
		}
		for _, m := range moves {
			*part.dest = append(*part.dest, moveRowOf(p, l, slug, m))
		}
	}
	v.NewMore = o.EntriesAdded - len(v.NewEntries)
	for _, id := range o.Proposals[:min(len(o.Proposals), editionListCap)] {
		v.Proposals = append(v.Proposals, choice{Value: id, Label: id, Href: l.Audit(id)})
	}
	v.ProposalsMore = len(o.Proposals) - len(v.Proposals)
	return v, v.changes(ctx, read, r, o, q, perPage)
}

// changes fills the filter, the pager and the page's groups of changes.
func (v *editionView) changes(ctx context.Context, read *projections.Store, r *domain.Ranking, o projections.EditionOverview, q editionQuery, perPage int) error {
	p, l, slug, n := v.Page, v.L, v.Slug, v.Number
	base := url.URL{Path: l.Edition(slug, n)}
	v.Filter = editionFilter{Action: base.Path, Entry: q.Entry, Criterion: q.Criterion, Active: q.Entry != "" || q.Criterion != "",
		ClearHref: base.Path + "#" + changesAnchor}
	for _, c := range r.Criteria {
		t := "score:" + c.Slug
		if o.Targets[t] > 0 || q.Criterion == t {
			v.Filter.Scores = append(v.Filter.Scores, choice{Value: t, Label: c.Name.In(p.Lang), Current: q.Criterion == t})
		}
	}
	for _, a := range r.Attributes {
		t := "attr:" + a.Key
		if o.Targets[t] > 0 || q.Criterion == t {
			v.Filter.Attrs = append(v.Filter.Attrs, choice{Value: t, Label: a.Name.In(p.Lang), Current: q.Criterion == t})
		}
	}
	f := projections.ChangeFilter{Target: q.Criterion}
	if q.Entry != "" {
		slug, ok, err := read.EntryNamed(ctx, v.Slug, q.Entry)
		if err != nil {
			return err
		}
		if !ok {
			v.Filter.NoEntry = true
			return nil
		}
		f.Entry = slug
	}
	total, err := read.EditionChangesCount(ctx, slug, n, f)
	if err != nil {
		return err
	}
	query := q.values()
	query.Del(ui.PageParam)
	base.RawQuery = query.Encode()
	v.Pager = ui.NewPager(total, q.Page, perPage, func(k int) string {
		if l.static {
			return l.rel(pagedFile("r/"+slug+"/editions/"+strconv.Itoa(n)+".html", k)) + "#" + changesAnchor
		}
		return ui.PageHref(&base, k) + "#" + changesAnchor
	})
	if v.Pager.Beyond() && q.Page > 1 {
		return projections.ErrNotFound
	}
	// One change before the page too: whether its first group began on
	// the page before.
	offset, limit := v.Pager.Offset(), perPage
	if offset > 0 {
		offset, limit = offset-1, limit+1
	}
	page, err := read.EditionChangesPage(ctx, slug, n, f, offset, limit)
	if err != nil {
		return err
	}
	before := ""
	if v.Pager.Offset() > 0 && len(page) > 0 {
		before, page = page[0].Entry, page[1:]
	}
	var entries []string
	for _, c := range page {
		if len(v.Groups) == 0 || v.Groups[len(v.Groups)-1].Entry != c.Entry {
			g := changeGroup{Entry: c.Entry, Name: c.EntryName.In(p.Lang), Href: l.Entry(slug, c.Entry, ""),
				Continued: len(v.Groups) == 0 && c.Entry == before}
			if !l.static && f.Entry == "" {
				only := url.Values{"entry": {c.Entry}}
				if q.Criterion != "" {
					only.Set("criterion", q.Criterion)
				}
				g.OnlyHref = withQuery(base.Path, only) + "#" + changesAnchor
			}
			v.Groups = append(v.Groups, g)
			entries = append(entries, c.Entry)
		}
		g := &v.Groups[len(v.Groups)-1]
		g.Rows = append(g.Rows, changeRowOf(p, l, slug, r, c))
	}
	counts, err := read.EditionEntryChanges(ctx, slug, n, entries)
	if err != nil {
		return err
	}
	moves, err := read.EditionMovesOf(ctx, slug, n, entries)
	if err != nil {
		return err
	}
	// A page of a few entries shows them open; a long one, their names.
	open := f.Entry != "" || len(v.Groups) <= 3
	for i := range v.Groups {
		g := &v.Groups[i]
		g.Count, g.Open = counts[g.Entry], open
		if m, ok := moves[g.Entry]; ok {
			g.Move = moveRowOf(p, l, slug, m).Move
		}
	}
	return nil
}

// moveRowOf is an entry's place after the edition, with its move.
func moveRowOf(p ui.Page, l linkSet, slug string, m projections.EditionMove) moveRow {
	row := moveRow{Name: m.Name.In(p.Lang), Href: l.Entry(slug, m.Entry, ""), After: m.After, Total: totalText(m.AfterTotal)}
	delta, ok := m.Delta()
	if !ok {
		row.Move = moveOf(p, map[string]*int{m.Entry: nil}, m.Entry)
		return row
	}
	row.Before = strconv.Itoa(*m.Before)
	row.Move = moveOf(p, map[string]*int{m.Entry: &delta}, m.Entry)
	return row
}

// changeRowOf is one published change, worded with the ranking's names.
func changeRowOf(p ui.Page, l linkSet, slug string, r *domain.Ranking, c projections.EditionChange) changeRow {
	row := changeRow{Entry: c.EntryName.In(p.Lang), Key: c.Target, Proposal: c.Proposal, AuditHref: l.Record(slug, c.Entry, c.Proposal)}
	for _, e := range c.Evidence {
		row.Evidence = append(row.Evidence, evidenceLink{Href: l.Entry(slug, c.Entry, evidenceAnchor(e.Proposal, e.ID)), Claim: e.Claim.In(p.Lang)})
	}
	if c.Kind() == "score" {
		row.IsScore = true
		row.Target = c.Key()
		if i := slices.IndexFunc(r.Criteria, func(cr events.Criterion) bool { return cr.Slug == c.Key() }); i >= 0 {
			row.Target = r.Criteria[i].Name.In(p.Lang)
		}
		row.From, row.To = scoreText(c.FromScore), scoreText(c.ToScore)
		if c.ToScore == nil && c.FromScore != nil && !r.HasCriterion(c.Key()) {
			row.To = p.T("public.score_cleared") // a methodology retired the criterion
		}
		row.EntryHref = l.Entry(slug, c.Entry, scoreAnchor(c.Key()))
		return row
	}
	row.Target = c.Key()
	labels := func(t []string) string { return strings.Join(t, p.T("public.list_sep")) }
	if def, ok := r.Attribute(c.Key()); ok {
		row.Target = def.Name.In(p.Lang)
		labels = func(t []string) string { return strings.Join(tagLabels(p, def.Values, t), p.T("public.list_sep")) }
	}
	row.From, row.To = orDash(labels(c.FromTags)), orDash(labels(c.ToTags))
	row.EntryHref = l.Entry(slug, c.Entry, attrAnchor(c.Key()))
	return row
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
	q, err := editionQueryOf(r.URL.Query())
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	s.servePage(w, r, slug, q.values(), false, func(p ui.Page, live liveUpdates) (templ.Component, error) {
		l := liveLinks
		l.bundles = s.bundles != nil
		l.captures = s.captures != nil
		v, err := buildEdition(ctx, s.read, p, l, slug, n, q, s.rows)
		v.Live = live
		return editionPage(v), err
	})
}
