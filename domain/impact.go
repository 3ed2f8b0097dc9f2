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
// 训练 scenario #4 → #2". A new entry counts from no rank.
func RankImpact(r *Ranking, ed *Edition, p *Proposal, newEntryCategory string) Impact {
	after := ed.Clone()
	pe := after.ownEntry(p.Entry)
	if pe == nil {
		pe = &PublishedEntry{Slug: p.Entry, Category: newEntryCategory, Scores: map[string]int{}, Attributes: map[string][]string{}}
		after.Entries[p.Entry] = pe
	}
	for c, ch := range p.Scores {
		pe.Scores[c] = ch.To
	}
	for a, ch := range p.Attributes {
		pe.Attributes[a] = ch.To
	}
	im := Impact{Entry: p.Entry}
	find := func(entries map[string]*PublishedEntry, w map[string]int) (Standing, bool) {
		for _, st := range Standings(entries, w) {
			if st.Entry == p.Entry {
				return st, true
			}
		}
		return Standing{}, false
	}
	w := r.Weights()
	b, wasRanked := find(ed.Entries, w)
	a, _ := find(after.Entries, w)
	im.BeforeTotal, im.AfterTotal = b.Total, a.Total
	if !wasRanked {
		b = Standing{}
	}
	im.Changes = append(im.Changes, RankChange{Scope: "overall", Before: b.Rank, After: a.Rank})
	var catName events.Text
	for _, c := range r.Categories {
		if c.Slug == pe.Category {
			catName = c.Name
		}
	}
	im.Changes = append(im.Changes, RankChange{Scope: "category", Label: catName, Before: b.CategoryRank, After: a.CategoryRank})
	for _, sc := range r.Scenarios {
		sb, ok := find(ed.Entries, sc.Weights)
		sa, _ := find(after.Entries, sc.Weights)
		if !ok {
			sb = Standing{}
		}
		im.Changes = append(im.Changes, RankChange{Scope: "scenario:" + sc.Slug, Label: sc.Name, Before: sb.Rank, After: sa.Rank})
	}
	return im
}
