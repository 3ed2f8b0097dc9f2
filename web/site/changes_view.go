package site

import (
	"context"
	"strconv"

	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/ui"
)

// changesView is the model of an entry's changes page.
type changesView struct {
	ui.Page
	L            linkSet
	Live         liveUpdates
	Slug, Entry  string
	Name         string
	EntryHref    string
	Action       string // the form's address: this page
	Editions     []int  // newest first, for the two selects
	From, To     int
	Nothing      bool // no earlier edition with the entry: nothing to compare
	RankFrom     int
	RankTo       int
	TotalFrom    string
	TotalTo      string
	Parts        []changePart
	Why          waterfallChart // the parts as a picture
	Scores       []changeScoreView
	Methods      []changeWeightView
	JSONHref     string
	NoScoreMoves bool
}

// changePart is one part of the rank move, with what it says.
type changePart struct {
	Key   string // own_scores, others_scores or methodology
	Label string
	Move  moveView
	After int // the rank after this step
}

type changeScoreView struct {
	Edition     int
	EditionHref string
	Criterion   string
	From, To    string // "—" where there was no score
	Proposal    string
	Evidence    []changeProofView
}

type changeProofView struct {
	Claim ui.Bilingual
	Href  string // the source; "" when not an http(s) URL
	Text  string // the source as text
}

type changeWeightView struct {
	Criterion string
	From, To  int
	Retired   bool
	Effect    string // signed points of 10, "+0.4"
}

func buildChanges(ctx context.Context, read *projections.Store, p ui.Page, l linkSet, e projections.EntryView, sp changesSpan) (changesView, error) {
	v := changesView{Page: p, L: l, Slug: e.Ranking.Slug, Entry: e.Slug, Name: e.Name.In(p.Lang),
		EntryHref: l.Entry(e.Ranking.Slug, e.Slug, ""), From: sp.From, To: sp.To, Nothing: sp.From == sp.To}
	v.Action = "/r/" + v.Slug + "/e/" + v.Entry + "/changes"
	v.JSONHref = v.Action + ".json?from=" + strconv.Itoa(sp.From) + "&to=" + strconv.Itoa(sp.To)
	v.Page.Title = p.T("changes.title", v.Name)
	for n := sp.Latest; n >= 1; n-- {
		v.Editions = append(v.Editions, n)
	}
	if v.Nothing {
		return v, nil
	}
	out, m, err := changesOf(ctx, read, v.Slug, v.Entry, sp)
	if err != nil {
		return v, err
	}
	crit := map[string]string{}
	for _, c := range e.Ranking.Criteria {
		crit[c.Slug] = c.Name.In(p.Lang)
	}
	v.RankFrom, v.RankTo = m.RankFrom, m.RankTo
	v.Why = waterfallOf(p, m, sp.From, sp.To)
	v.TotalFrom, v.TotalTo = totalText(m.TotalFrom), totalText(m.TotalTo)
	own, others, method := m.Parts()
	for _, part := range []struct {
		key         string
		delta, rank int
	}{{"own_scores", own, m.RankOwn}, {"others_scores", others, m.RankOthers}, {"methodology", method, m.RankTo}} {
		v.Parts = append(v.Parts, changePart{Key: part.key, Label: p.T("changes.part_" + part.key),
			Move: rankMove(p, part.delta), After: part.rank})
	}
	for _, sc := range out.Scores {
		cv := changeScoreView{Edition: sc.Edition, EditionHref: l.Edition(v.Slug, sc.Edition),
			Criterion: orSlug(crit[sc.Criterion], sc.Criterion), From: scoreText(sc.From), To: scoreText(sc.To), Proposal: sc.Proposal}
		for _, ev := range sc.Evidence {
			text := ev.SourceName
			if text == "" {
				text = ev.SourceURL
			}
			cv.Evidence = append(cv.Evidence, changeProofView{Claim: ui.BilingualOf(p, ev.Claim), Href: sourceHref(ev.SourceURL), Text: text})
		}
		v.Scores = append(v.Scores, cv)
	}
	v.NoScoreMoves = len(v.Scores) == 0
	for _, w := range out.Methodology {
		v.Methods = append(v.Methods, changeWeightView{Criterion: orSlug(crit[w.Criterion], w.Criterion),
			From: w.From, To: w.To, Retired: w.Retired, Effect: signedPoints(w.Effect)})
	}
	return v, nil
}

// rankMove words a part of a rank move (+ is up).
func rankMove(p ui.Page, d int) moveView {
	switch {
	case d > 0:
		return moveView{Kind: "up", Text: "▲" + strconv.Itoa(d), Label: p.T("changes.up", d)}
	case d < 0:
		return moveView{Kind: "down", Text: "▼" + strconv.Itoa(-d), Label: p.T("changes.down", -d)}
	}
	return moveView{Kind: "same", Text: "–", Label: p.T("changes.same")}
}

// signedPoints is a change of a total (0–1000) in points of 10: "+0.4".
func signedPoints(d int) string {
	if d < 0 {
		return "−" + totalText(-d)
	}
	return "+" + totalText(d)
}
