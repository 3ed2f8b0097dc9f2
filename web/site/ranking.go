package site

import (
	"context"
	"net/http"
	"slices"
	"strings"

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

// entryRow is one entry in the shown ranking: one row of the table.
type entryRow struct {
	Pos       int // place in the shown list
	Rank      int // rank under the view's weights before filtering
	Slug      string
	Name      string
	Category  string
	Href      string
	Total     int
	TotalText string
	Move      moveView
	Tier      int    // of the overall published order only; 0: not shown
	TierTitle string // "shares its tier with 2 other entries"
	// Reach is the stability interval of the overall rank, "3–7", when
	// one removed score or a moved weight could move it; "" when stable.
	Reach   string
	History sparkLine // the rank across the last editions
	Scores  []rowScore
	Reasons []string // why the entry is hidden
}

// rowScore is one criterion's cell of a row.
type rowScore struct {
	Scored bool
	Score  int
	Off    bool // the criterion weighs nothing in this view
}

// column is one header of the ranking table, linked to sort by it.
type column struct {
	Key    string // the sort key's column: "" (rank), name, …, c.<criterion>
	Label  string
	Detail string // the criterion's weight, "20%"
	Href   string // "" in a static export: its files are not sorted
	Sort   string // aria-sort: "ascending", "descending" or ""
	Off    bool
	Class  string
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
	Columns     []column
	Tiers       bool // the overall published order: tiers and their reach shown
	Rows        []entryRow
	Bump        bumpChart     // the top ten across editions
	Reach       intervalChart // the page's first rows' stability intervals
	Matched     int           // rows that meet the needs (and the name filter), on any page
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
	if q.Scenario == "" && !q.Independent {
		if stab, err = read.Stability(ctx, slug, st.Edition); err != nil {
			return v, err
		}
	}
	named, err := namedEntries(ctx, read, slug, q.Name)
	if err != nil {
		return v, err
	}
	v.Tiers = stab != nil
	// First the places, in rank order; then the shown rows, in the order
	// the reader sorted by (read from the memo, not sorted here); then
	// the page of them, the only rows built.
	places := make([]int, len(st.Rows)) // 0: not in the view's category
	pos := 0
	for i, sr := range st.Rows {
		if q.Category != "" && sr.Category != q.Category {
			continue
		}
		if len(sr.Excluded) == 0 {
			pos++ // the place in the view, whether the name filter shows it or not
			places[i] = pos
		} else {
			places[i] = -1
		}
	}
	var order []int32 // nil: the rank order, nothing to sort
	if q.Sort.Column != "" {
		memoKey := strings.Join([]string{slug, itoa(st.Edition), q.Scenario, hash, p.Lang, q.Sort.String()}, "\x00")
		order = sortedOrders.order(memoKey, len(st.Rows), func() []int32 {
			return sortRows(st.Rows, q.Sort, func(r projections.StandingRow) string { return r.Name.In(p.Lang) }, catNames, stab, moves)
		})
	}
	var shown []int32
	for k := range st.Rows {
		i := k
		if order != nil {
			i = int(order[k])
		}
		sr := st.Rows[i]
		if places[i] == 0 || named != nil && !named[sr.Slug] {
			continue
		}
		if places[i] < 0 {
			row := v.row(p, l, sr, catNames, moves, q)
			for _, ex := range sr.Excluded {
				if reason := ex.Reason.In(p.Lang); !slices.Contains(row.Reasons, reason) {
					row.Reasons = append(row.Reasons, reason)
				}
			}
			v.Hidden = append(v.Hidden, row)
			continue
		}
		shown = append(shown, int32(i))
	}
	v.Matched = len(shown)
	if perPage <= 0 {
		perPage = max(1, len(shown))
	}
	v.Pager = ui.NewPager(len(shown), q.Page, perPage, func(n int) string {
		at := q
		at.Page = n
		return l.RankingQuery(slug, at.values())
	})
	if v.Pager.Beyond() {
		return v, projections.ErrNotFound
	}
	if v.Pager.Total > 0 {
		shown = shown[v.Pager.From-1 : v.Pager.To]
	}
	page := make([]string, 0, len(shown)+bumpTop)
	for _, i := range shown {
		page = append(page, st.Rows[i].Slug)
	}
	// The bump chart follows the top ten of the view (by rank) across
	// editions; the table's rows show each one's own history.
	var top []string
	for i, sr := range st.Rows {
		if places[i] > 0 && places[i] <= bumpTop {
			top = append(top, sr.Slug)
		}
	}
	hist, err := read.RankHistories(ctx, slug, append(page, top...))
	if err != nil {
		return v, err
	}
	for _, i := range shown {
		sr := st.Rows[i]
		row := v.row(p, l, sr, catNames, moves, q)
		row.Pos = places[i]
		if e, ok := stab[sr.Slug]; ok {
			row.Tier, row.TierTitle = tierOf(p, stab, sr.Slug)
			if e.Others > 0 && e.Best != e.Worst {
				row.Reach = itoa(e.Best) + "–" + itoa(e.Worst)
			}
		}
		row.History = rankSpark(p, hist[sr.Slug])
		v.Rows = append(v.Rows, row)
	}
	v.Columns = rankingColumns(p, l, slug, q, v.Criteria, v.Tiers)
	if q.Scenario == "" && !q.Independent && q.Category == "" {
		names := map[string]string{}
		for _, sr := range st.Rows[:min(len(st.Rows), bumpTop*3)] {
			names[sr.Slug] = sr.Name.In(p.Lang)
		}
		v.Bump = bumpOf(p, top, hist, names, "")
		if v.Tiers && len(v.Rows) > 0 && q.Sort.Column == "" {
			v.Reach = intervalOf(p, v.Rows[:min(len(v.Rows), bumpTop)], stab)
		}
	}
	return v, nil
}

// row is an entry's row of the table, without its place and history.
func (v rankingView) row(p ui.Page, l linkSet, sr projections.StandingRow, catNames map[string]string, moves map[string]*int, q viewQuery) entryRow {
	row := entryRow{Rank: sr.Rank, Slug: sr.Slug, Name: sr.Name.In(p.Lang), Category: catNames[sr.Category],
		Href: l.Entry(v.Slug, sr.Slug, ""), Total: sr.Total, TotalText: totalText(sr.Total), Move: moveOf(p, moves, sr.Slug)}
	if q.Independent {
		row.Move = moveView{} // editions record the moves of the published order only
	}
	for _, c := range v.Criteria {
		sc, ok := sr.Scores[c.Slug]
		row.Scores = append(row.Scores, rowScore{Scored: ok, Score: clampScore(sc), Off: c.Weight == 0})
	}
	return row
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
