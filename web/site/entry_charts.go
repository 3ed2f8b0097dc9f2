package site

import (
	"context"
	"slices"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/projections"
)

// charts draws the entry page's pictures: its rank beside the top ten's
// across editions, each criterion's score across editions, and its
// stability interval beside the entries it could change places with. Why
// it moved is drawn on the changes page: it reads two editions' snapshots,
// 680 of an entry page's 740 ms at 10,000 entries. changes are the entry's published
// changes in edition order, st is the overall standing of the newest
// edition, stab its stability, names the entries' names in the page's
// language.
func (v *entryView) charts(ctx context.Context, read *projections.Store, e projections.EntryView,
	changes []projections.PublishedChange, st projections.StandingView, stab map[string]domain.EntryStability, names map[string]string) error {
	p := v.Page
	var follow []string
	for _, row := range st.Rows[:min(len(st.Rows), bumpTop)] {
		follow = append(follow, row.Slug)
	}
	if !slices.Contains(follow, v.Entry) {
		follow = append(follow, v.Entry)
	}
	hist, err := read.RankHistories(ctx, v.Slug, follow)
	if err != nil {
		return err
	}
	v.Bump = bumpOf(p, follow, hist, names, v.Entry)

	own := hist[v.Entry]
	if len(own) > 0 && e.Edition > 0 {
		var crit []criterionView
		for _, c := range e.Ranking.Criteria {
			crit = append(crit, criterionView{Slug: c.Slug, Name: c.Name.In(p.Lang), Weight: c.Weight})
		}
		first := max(own[0].Edition, e.Edition-bumpEditions+1)
		v.ScoreHistory = scoreHistoryOf(p, crit, changes, first, e.Edition)
	}

	// The stability interval: the entry and the nearest it could change
	// places with, in rank order.
	if mine, ok := stab[v.Entry]; ok {
		near := map[string]bool{v.Entry: true}
		for _, s := range mine.Swaps {
			if len(near) >= 7 {
				break
			}
			near[s.With] = true
		}
		var rows []entryRow
		for _, row := range st.Rows {
			if near[row.Slug] {
				rows = append(rows, entryRow{Slug: row.Slug, Name: names[row.Slug], Rank: row.Rank})
			}
		}
		v.Reach = intervalOf(p, rows, stab)
		v.Reach.ID = "reach-" + v.Entry
	}
	return nil
}
