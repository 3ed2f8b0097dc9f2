package desk

import (
	"cmp"
	"context"
	"errors"
	"strconv"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/ui"
)

// methodologyPanel is what a methodology proposal's page shows in place of
// an entry's diff: the rationale, the changes in words, and which entries
// would move if it were published now.
type methodologyPanel struct {
	NewRanking   bool
	Rationale    ui.Bilingual
	Changes      []methodologyChangeRow
	EditHref     string // the form pre-filled with the draft, "" when the user may not edit
	Moves        []moveGroup
	PreviewError string // why no preview could be made
}

// methodologyChangeRow is one change in words.
type methodologyChangeRow struct {
	Kind string
	Text string
}

// moveGroup is one scope's moves: overall, a category or a scenario.
type moveGroup struct {
	ID      string // "overall", "category-<slug>", "scenario-<slug>"
	Heading string
	Rows    []moveRow
}

// moveRow is one entry whose rank moves in a scope.
type moveRow struct {
	Slug string
	Text string // "PPIO #3 → #1"
	Move string // "up", "down", "new"
}

// methodologyPanelOf reads a methodology proposal for its page.
func (d *Desk) methodologyPanelOf(ctx context.Context, p ui.Page, dp *domain.Proposal, can domain.Actions) (*methodologyPanel, error) {
	v := &methodologyPanel{NewRanking: dp.NewRanking}
	if can.Edit {
		v.EditHref = "/desk/rankings/" + dp.Ranking + "/methodology?proposal=" + dp.ID
	}
	if dp.Methodology == nil {
		return v, nil
	}
	v.Rationale = ui.BilingualOf(p, dp.Methodology.Rationale)
	rk, err := d.cmd.Ranking(ctx, dp.Ranking)
	first := errors.Is(err, domain.ErrRankingMissing)
	if err != nil && !first {
		return v, err
	}
	var old events.Methodology
	if !first {
		old = rk.Methodology()
	}
	proposed := dp.Methodology.Methodology
	if !dp.Status.Open() {
		// Closed: what it changed, as the read model recorded it (once
		// published, the ranking's methodology is the proposed one).
		changes, err := d.read.MethodologyChanges(ctx, dp.ID)
		for _, c := range changes {
			v.Changes = append(v.Changes, methodologyChangeRow{Kind: c.Kind, Text: changeText(p, c, old, proposed)})
		}
		return v, err
	}
	for _, c := range domain.DiffMethodology(old, proposed, first) {
		v.Changes = append(v.Changes, methodologyChangeRow{Kind: c.Kind, Text: changeText(p, c, old, proposed)})
	}
	ed, err := d.cmd.Edition(ctx, dp.Ranking)
	if err != nil {
		return v, err
	}
	if first {
		rk = &domain.Ranking{}
	}
	// The preview of an edition publishing this proposal alone, as if it
	// were cross-validated now: what review would let through.
	asIf := *dp
	asIf.Status = domain.StatusCrossValidated
	pv, err := domain.Preview(rk, ed, []*domain.Proposal{&asIf}, nil)
	if err != nil {
		if httpx.Status(err) >= 500 {
			return v, err
		}
		v.PreviewError = httpx.Message(p.Lang, err)
		return v, nil
	}
	v.Moves = movesOf(p, pv, old, proposed)
	return v, nil
}

// changeText words one change: "Weight of Price: 15 → 10".
func changeText(p ui.Page, c events.MethodologyChange, old, proposed events.Methodology) string {
	name := c.Target
	for _, m := range []events.Methodology{proposed, old} {
		if n := itemName(m, c.Target).In(p.Lang); n != "" && name == c.Target {
			name = n
		}
	}
	return p.T("desk.meth.change."+c.Kind, name, c.From, c.To)
}

// itemName is the name of the category, criterion, attribute, scenario or
// filter keyed target in m.
func itemName(m events.Methodology, target string) events.Text {
	for _, c := range m.Categories {
		if c.Slug == target {
			return c.Name
		}
	}
	for _, c := range m.Criteria {
		if c.Slug == target {
			return c.Name
		}
	}
	for _, a := range m.Attributes {
		if a.Key == target {
			return a.Name
		}
	}
	for _, s := range m.Scenarios {
		if s.Slug == target {
			return s.Name
		}
	}
	for _, f := range m.Filters {
		if f.Key == target {
			return f.Question
		}
	}
	return events.Text{}
}

// movesOf lists the entries whose rank the preview moves: overall, within
// each category, and in each scenario.
func movesOf(p ui.Page, pv domain.EditionPreview, old, proposed events.Methodology) []moveGroup {
	names := map[string]string{}
	before := map[string]domain.SnapshotEntry{}
	for _, e := range pv.Before.Entries {
		before[e.Slug] = e
	}
	overall := moveGroup{ID: "overall", Heading: p.T("desk.meth.moves.overall")}
	byCategory := map[string]*moveGroup{}
	var order []string
	for _, e := range pv.After.Entries {
		names[e.Slug] = cmp.Or(e.Name.In(p.Lang), e.Slug)
		b, ok := before[e.Slug]
		if row, moved := moveOf(names[e.Slug], e.Slug, b.Rank, e.Rank, ok); moved {
			overall.Rows = append(overall.Rows, row)
		}
		if row, moved := moveOf(names[e.Slug], e.Slug, b.CategoryRank, e.CategoryRank, ok); moved {
			g := byCategory[e.Category]
			if g == nil {
				label := cmp.Or(itemName(proposed, e.Category).In(p.Lang), itemName(old, e.Category).In(p.Lang), e.Category)
				g = &moveGroup{ID: "category-" + e.Category, Heading: p.T("desk.meth.moves.category", label)}
				byCategory[e.Category] = g
				order = append(order, e.Category)
			}
			g.Rows = append(g.Rows, row)
		}
	}
	out := []moveGroup{overall}
	for _, c := range order {
		out = append(out, *byCategory[c])
	}
	beforeOrder := map[string][]string{}
	for _, s := range pv.Before.Scenarios {
		beforeOrder[s.Slug] = s.Order
	}
	for _, s := range pv.After.Scenarios {
		g := moveGroup{ID: "scenario-" + s.Slug, Heading: p.T("desk.meth.moves.scenario",
			cmp.Or(itemName(proposed, s.Slug).In(p.Lang), s.Slug))}
		was := map[string]int{}
		for i, slug := range beforeOrder[s.Slug] {
			was[slug] = i + 1
		}
		for i, slug := range s.Order {
			b, ok := was[slug]
			if row, moved := moveOf(cmp.Or(names[slug], slug), slug, b, i+1, ok); moved {
				g.Rows = append(g.Rows, row)
			}
		}
		if len(g.Rows) > 0 {
			out = append(out, g)
		}
	}
	return out
}

// moveOf is the row of an entry ranked before (known: was ranked) and
// after, and whether it moved.
func moveOf(name, slug string, before, after int, known bool) (moveRow, bool) {
	if known && before == after {
		return moveRow{}, false
	}
	move := "new"
	if known {
		move = rankMove(before, after)
	}
	text := name + " → #" + strconv.Itoa(after)
	if known {
		text = name + " #" + strconv.Itoa(before) + " → #" + strconv.Itoa(after)
	}
	return moveRow{Slug: slug, Text: text, Move: move}, true
}
