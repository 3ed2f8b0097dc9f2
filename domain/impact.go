package domain

import (
	"github.com/crossrank/crossrank/events"
)

// RankChange is an entry's rank before and after a proposal, in one scope.
type RankChange struct {
	Scope  string      // "overall", "category" or "scenario:<slug>"
	Label  events.Text // the category or scenario name ("" for overall)
	Before int         // 0: not ranked before (a new entry)
	After  int
}

// Impact is what accepting a proposal would do to its entry's ranks.
type Impact struct {
	Entry       string
	BeforeTotal int
	AfterTotal  int
	Changes     []RankChange
}

// RankImpact computes the rank-impact preview of p's current changes against
// the published ranking: "if accepted: #5 → #3 overall, #2 → #1 in AI 算力云,
// 训练 scenario #4 → #2". A new entry counts from no rank. Only p's entry
// changes, so each scope's standings come from memo (nil: ranked afresh)
// and the entry is placed among the others by its new total.
func RankImpact(r *Ranking, ed *Edition, p *Proposal, newEntryCategory string, memo *StandingMemo) Impact {
	before := ed.Entry(p.Entry)
	category, scores := newEntryCategory, map[string]int{}
	if before != nil {
		category = before.Category
		for c, v := range before.Scores {
			scores[c] = v
		}
	}
	for c, ch := range p.Scores {
		scores[c] = ch.To
	}
	im := Impact{Entry: p.Entry}
	scope := func(w map[string]int) (b, a Standing) {
		x := memo.Index(ed, w)
		b, _ = x.Of(p.Entry) // zero when not ranked before
		return b, x.Rank(p.Entry, category, Total(scores, w))
	}
	b, a := scope(r.Weights())
	im.BeforeTotal, im.AfterTotal = b.Total, a.Total
	im.Changes = append(im.Changes, RankChange{Scope: "overall", Before: b.Rank, After: a.Rank})
	var catName events.Text
	for _, c := range r.Categories {
		if c.Slug == category {
			catName = c.Name
		}
	}
	im.Changes = append(im.Changes, RankChange{Scope: "category", Label: catName, Before: b.CategoryRank, After: a.CategoryRank})
	for _, sc := range r.Scenarios {
		sb, sa := scope(sc.Weights)
		im.Changes = append(im.Changes, RankChange{Scope: "scenario:" + sc.Slug, Label: sc.Name, Before: sb.Rank, After: sa.Rank})
	}
	return im
}
