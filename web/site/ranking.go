package site

import (
	"context"
	"net/http"
	"slices"

	"github.com/a-h/templ"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/ui"
)

// pageRows is how many rows a page of a ranking shows: a thousand-entry
// ranking on one page is 6 MB of HTML, most readers look at the top, the
// entry pages carry the detail and the edition's CSV and JSON the whole
// list. The static export pages the same way, into files.
const pageRows = 100

// criterionView is a criterion with its weight in the view.
type criterionView struct {
	Slug   string
	Name   string
	Weight int
}

// choice is one tab of the scenario or category picker.
type choice struct {
	Value   string
	Label   string
	Href    string
	Current bool
}

// filterView is one needs question with its options.
type filterView struct {
	Key      string
	Question string
	Options  []choice
}

// moveView is an entry's rank change since the previous edition.
type moveView struct {
	Kind  string // "up", "down", "same" or "new"
	Text  string // "▲2", "▼1", "–", "new"
	Label string // spelled out for screen readers
}

// entryRow is one entry in the shown ranking.
type entryRow struct {
	Pos       int // place in the shown list
	Rank      int // rank under the view's weights before filtering
	Slug      string
	Name      string
	Category  string
	Href      string
	Total     int
	TotalText string
	TotalFill string
	Move      moveView
	Stability stabilityView // of the overall published order only
	Tier      int           // of the overall published order only; 0: not shown
	Spark     sparkView
	Scores    []rowScore
	Reasons   []string // why the entry is hidden
}

// rowScore is one criterion of a row's breakdown.
type rowScore struct {
	Name   string
	Weight int
	Scored bool
	Meter  meterView
}

// rankingView is the model of a ranking page.
type rankingView struct {
	ui.Page
	L           linkSet
	Live        liveUpdates
	Slug        string
	Title       string
	Description string
	Edition     int
	PublishedOn string
	Query       viewQuery
	ScenarioDoc string // the chosen scenario's description
	Scenarios   []choice
	Categories  []choice
	Filters     []filterView
	Criteria    []criterionView
	Rows        []entryRow
	Matched     int // rows that meet the needs (and the name filter), on any page
	Pager       ui.Pager
	Hidden      []entryRow
	NeedsSet    bool
	ResetHref   string
	APIHref     string
	Bases       []choice // all evidence, or independent evidence only
	// IndependentHash is the SHA-256 of the independent view's canonical
	// snapshot; "" on the published view.
	IndependentHash string
}

// buildRanking assembles page q.Page of a ranking from the read models,
// perPage rows a page (0: every row on one page). A page past the last is
// projections.ErrNotFound; the first page always exists, empty or not.
func buildRanking(ctx context.Context, read *projections.Store, p ui.Page, l linkSet, slug string, q viewQuery, perPage int) (rankingView, error) {
	st, hash, err := standingOf(ctx, read, slug, q)
	if err != nil {
		return rankingView{}, err
	}
	r := st.Ranking
	v := rankingView{Page: p, L: l, Slug: slug, Title: r.Title.In(p.Lang), Description: r.Description.In(p.Lang),
		Edition: st.Edition, Query: q, NeedsSet: len(q.Needs) > 0, APIHref: l.API(slug), IndependentHash: hash}
	v.Page.Title = v.Title
	v.ResetHref = l.Ranking(slug, q.Scenario, q.Category)
	if mark, err := read.EditionMark(ctx, slug); err == nil {
		v.PublishedOn = dayText(p, mark.PublishedAt)
	}
	if sc, ok := r.Scenario(q.Scenario); ok {
		v.ScenarioDoc = sc.Description.In(p.Lang)
	}
	for _, c := range r.Criteria {
		v.Criteria = append(v.Criteria, criterionView{Slug: c.Slug, Name: c.Name.In(p.Lang), Weight: st.Weights[c.Slug]})
	}
	v.Scenarios, v.Categories, v.Filters = pickers(p, l, r, q)
	if !l.Static() {
		v.Bases = bases(p, l, slug, q)
	}
	moves, err := movesOf(ctx, read, slug, st.Edition, q)
	if err != nil {
		return v, err
	}
	catNames := map[string]string{}
	for _, c := range r.Categories {
		catNames[c.Slug] = c.Name.In(p.Lang)
	}
	// Stability is of the overall published order: not shown under a
	// scenario's weights or in the independent view.
	var stab map[string]domain.EntryStability
	entryNames, critNames := map[string]string{}, map[string]string{}
	if q.Scenario == "" && !q.Independent {
		if stab, err = read.Stability(ctx, slug, st.Edition); err != nil {
			return v, err
		}
		for _, sr := range st.Rows {
			entryNames[sr.Slug] = sr.Name.In(p.Lang)
		}
		for _, c := range r.Criteria {
			critNames[c.Slug] = c.Name.In(p.Lang)
		}
	}
	named, err := namedEntries(ctx, read, slug, q.Name)
	if err != nil {
		return v, err
	}
	pos := 0
	for _, sr := range st.Rows {
		if q.Category != "" && sr.Category != q.Category {
			continue
		}
		if len(sr.Excluded) == 0 {
			pos++ // the place in the view, whether the name filter shows it or not
		}
		if named != nil && !named[sr.Slug] {
			continue
		}
		row := entryRow{Rank: sr.Rank, Slug: sr.Slug, Name: sr.Name.In(p.Lang), Category: catNames[sr.Category],
			Href: l.Entry(slug, sr.Slug, ""), Total: sr.Total, TotalText: totalText(sr.Total),
			TotalFill: totalMeter(sr.Total), Move: moveOf(p, moves, sr.Slug),
			Spark: sparkOf(p, v.Criteria, sr.Scores)}
		if q.Independent {
			row.Move = moveView{} // editions record the moves of the published order only
		}
		row.Stability = stabilityOf(p, stab, sr.Slug, entryNames, critNames)
		row.Tier = stab[sr.Slug].Tier
		for _, c := range v.Criteria {
			sc, ok := sr.Scores[c.Slug]
			row.Scores = append(row.Scores, rowScore{Name: c.Name, Weight: c.Weight, Scored: ok, Meter: meterOf(sc)})
		}
		if len(sr.Excluded) > 0 {
			for _, ex := range sr.Excluded {
				if reason := ex.Reason.In(p.Lang); !slices.Contains(row.Reasons, reason) {
					row.Reasons = append(row.Reasons, reason)
				}
			}
			v.Hidden = append(v.Hidden, row)
			continue
		}
		row.Pos = pos
		v.Rows = append(v.Rows, row)
	}
	v.Matched = len(v.Rows)
	if perPage <= 0 {
		perPage = max(1, len(v.Rows))
	}
	v.Pager = ui.NewPager(len(v.Rows), q.Page, perPage, func(n int) string {
		at := q
		at.Page = n
		return l.RankingQuery(slug, at.values())
	})
	if v.Pager.Beyond() {
		return v, projections.ErrNotFound
	}
	if v.Pager.Total > 0 {
		v.Rows = v.Rows[v.Pager.From-1 : v.Pager.To]
	}
	return v, nil
}

// namedEntries returns the entries of ranking whose name or slug holds
// name, from the search index; nil when name is "" (no filter).
func namedEntries(ctx context.Context, read *projections.Store, ranking, name string) (map[string]bool, error) {
	if name == "" {
		return nil, nil
	}
	return read.NamedEntries(ctx, ranking, name)
}

// pickers builds the scenario and category tabs (each keeping the other
// choices) and the needs questions.
func pickers(p ui.Page, l linkSet, r *domain.Ranking, q viewQuery) (scen, cats []choice, filters []filterView) {
	link := func(scenario, category string) string {
		next := q
		next.Scenario, next.Category = scenario, category
		return l.RankingQuery(r.Slug, next.values())
	}
	scen = append(scen, choice{Label: p.T("public.overall"), Href: link("", q.Category), Current: q.Scenario == ""})
	for _, sc := range r.Scenarios {
		scen = append(scen, choice{Value: sc.Slug, Label: sc.Name.In(p.Lang), Href: link(sc.Slug, q.Category), Current: q.Scenario == sc.Slug})
	}
	cats = append(cats, choice{Label: p.T("public.all_categories"), Href: link(q.Scenario, ""), Current: q.Category == ""})
	for _, c := range r.Categories {
		cats = append(cats, choice{Value: c.Slug, Label: c.Name.In(p.Lang), Href: link(q.Scenario, c.Slug), Current: q.Category == c.Slug})
	}
	for _, f := range r.Filters {
		if reserved[f.Key] {
			continue
		}
		pf := filterView{Key: f.Key, Question: f.Question.In(p.Lang)}
		pf.Options = append(pf.Options, choice{Label: p.T("public.need_any"), Current: q.Needs[f.Key] == ""})
		for _, o := range f.Options {
			pf.Options = append(pf.Options, choice{Value: o.Value, Label: o.Label.In(p.Lang), Current: q.Needs[f.Key] == o.Value})
		}
		filters = append(filters, pf)
	}
	return scen, cats, filters
}

// standingOf returns the standing q asks for: the published one, or the
// independent view with its hash.
func standingOf(ctx context.Context, read *projections.Store, slug string, q viewQuery) (projections.StandingView, string, error) {
	if !q.Independent {
		st, err := read.Standing(ctx, slug, q.Scenario, q.Needs)
		return st, "", err
	}
	iv, err := read.IndependentStanding(ctx, slug, q.Scenario, q.Needs)
	return iv.StandingView, iv.Hash, err
}

// bases are the two tabs of the evidence a ranking counts, each keeping
// the reader's other choices.
func bases(p ui.Page, l linkSet, slug string, q viewQuery) []choice {
	all, ind := q, q
	all.Independent, ind.Independent = false, true
	return []choice{
		{Value: "all", Label: p.T("public.view_published"), Href: l.RankingQuery(slug, all.values()), Current: !q.Independent},
		{Value: independentEvidence, Label: p.T("public.view_independent"), Href: l.RankingQuery(slug, ind.values()), Current: q.Independent},
	}
}

// movesOf returns the rank moves of the latest edition in the view's
// scope: the scenario's order, else the category's, else overall.
func movesOf(ctx context.Context, read *projections.Store, slug string, edition int, q viewQuery) (map[string]*int, error) {
	scope := "overall"
	switch {
	case q.Scenario != "":
		scope = "scenario:" + q.Scenario
	case q.Category != "":
		scope = "category"
	}
	moves, err := read.Moves(ctx, slug, edition, scope)
	if err != nil {
		return nil, err
	}
	out := make(map[string]*int, len(moves))
	for _, m := range moves {
		if d, ok := m.Delta(); ok {
			out[m.Entry] = &d
		} else {
			out[m.Entry] = nil
		}
	}
	return out, nil
}

// moveOf describes an entry's move; an entry without a move record is
// shown as unchanged.
func moveOf(p ui.Page, moves map[string]*int, entry string) moveView {
	d, ok := moves[entry]
	switch {
	case ok && d == nil:
		return moveView{Kind: "new", Text: p.T("public.move_new"), Label: p.T("public.move_new_label")}
	case !ok || *d == 0:
		return moveView{Kind: "same", Text: "–", Label: p.T("public.move_same_label")}
	case *d > 0:
		return moveView{Kind: "up", Text: "▲" + itoa(*d), Label: p.T("public.move_up_label", *d)}
	}
	return moveView{Kind: "down", Text: "▼" + itoa(-*d), Label: p.T("public.move_down_label", -*d)}
}

// dayText formats an RFC 3339 time as a date in the page's language.
func dayText(p ui.Page, ts string) string {
	if len(ts) < 10 {
		return ""
	}
	return p.Day(ts[:10])
}

// ranking serves GET /r/{slug}.
func (s *Site) ranking(w http.ResponseWriter, r *http.Request) {
	slug := r.PathValue("slug")
	s.serveRanking(w, r, slug, slug)
}

// serveRanking serves ranking slug; its validators follow the edition
// mark of markOf (the start page follows every ranking, as a new one turns
// it into a list).
func (s *Site) serveRanking(w http.ResponseWriter, r *http.Request, slug, markOf string) {
	ctx := r.Context()
	def, _, err := s.definition(ctx, slug)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	q := viewQueryOf(def, r.URL.Query())
	s.servePage(w, r, markOf, q.values(), false, func(p ui.Page, live liveUpdates) (templ.Component, error) {
		l := liveLinks
		l.origin = s.origin // the JSON-LD's addresses are absolute when it is known
		v, err := buildRanking(ctx, s.read, p, l, slug, q, s.rows)
		v.Live = live
		return rankingPage(v), err
	})
}

// home serves GET /: the single ranking, or the list of rankings.
func (s *Site) home(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	list, err := s.read.PublicRankings(ctx)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	if len(list) == 1 {
		s.serveRanking(w, r, list[0].Slug, "")
		return
	}
	s.servePage(w, r, "", nil, false, func(p ui.Page, live liveUpdates) (templ.Component, error) {
		v, err := buildHome(ctx, s.read, p, liveLinks)
		v.Live = live
		return homePage(v), err
	})
}
