package site

import (
	"strings"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/ui"
)

// scoreHistoryChart is an entry's score on each criterion across
// editions: one small step line per criterion, 0 at the bottom of its band
// and 10 at the top, the current score written at the end.
type scoreHistoryChart struct {
	chartFrame
	Bands  []scoreBand
	XTicks []chartText
	PlotL  int
	PlotR  int
}

type scoreBand struct {
	Top, Bottom int
	Label       chartText
	Value       chartText // the latest score, at the line's end
	Points      string    // "" when never scored in the span
	Marks       []chartMark
}

const (
	histW, histPadL, histPadR = 640, 170, 40
	histBand, histGap         = 30, 10
)

// scoreHistoryOf draws the scores changes set, criterion by criterion
// (crit in the ranking's order), from edition first to last. changes are
// an entry's published changes in edition order (PublishedChanges).
func scoreHistoryOf(p ui.Page, crit []criterionView, changes []projections.PublishedChange, first, last int) scoreHistoryChart {
	if first < 1 || last < first {
		return scoreHistoryChart{}
	}
	c := scoreHistoryChart{chartFrame: chartFrame{ID: "score-history", Width: histW}, PlotL: histPadL, PlotR: histW - histPadR}
	// at[criterion][edition] is the score after that edition; absent: unscored.
	at := map[string]map[int]int{}
	for _, ch := range changes {
		crit, ok := strings.CutPrefix(ch.Target, "score:")
		if !ok || ch.Edition > last {
			continue
		}
		if at[crit] == nil {
			at[crit] = map[int]int{}
		}
		if ch.ToScore == nil {
			at[crit][ch.Edition] = -1
		} else {
			at[crit][ch.Edition] = *ch.ToScore
		}
	}
	x := func(ed int) int { return scale(ed, first, last, c.PlotL+4, c.PlotR-4) }
	if first == last {
		x = func(int) int { return c.PlotL + 4 } // one edition: a dot at the start
	}
	c.Table = chartTable{Caption: p.T("glance.scores_table"), Head: []string{p.T("public.criterion")}}
	for ed := first; ed <= last; ed++ {
		c.Table.Head = append(c.Table.Head, p.T("public.edition_short", ed))
		if last-first < 8 || ed == first || ed == last || (ed-first)%2 == 0 {
			c.XTicks = append(c.XTicks, chartText{X: x(ed), Anchor: "middle", Text: p.T("public.edition_short", ed)})
		}
	}
	var described []string
	for i, cr := range crit {
		top := 6 + i*(histBand+histGap)
		b := scoreBand{Top: top, Bottom: top + histBand,
			Label: chartText{X: c.PlotL - 10, Y: top + histBand/2 + 4, Anchor: "end", Text: clip(cr.Name, 22)}}
		y := func(score int) int { return scale(score, 0, domain.MaxScore, b.Bottom-4, b.Top+4) }
		row := []string{cr.Name}
		score, scored := -1, false
		var xs, ys []int
		for ed := 1; ed <= last; ed++ {
			if s, ok := at[cr.Slug][ed]; ok {
				score, scored = s, s >= 0
			}
			if ed < first {
				continue
			}
			if !scored {
				row = append(row, "–")
				continue
			}
			row = append(row, itoa(score))
			if len(ys) > 0 && ys[len(ys)-1] != y(score) {
				xs, ys = append(xs, x(ed)), append(ys, ys[len(ys)-1]) // a step, not a slope
			}
			xs, ys = append(xs, x(ed)), append(ys, y(score))
			b.Marks = append(b.Marks, chartMark{X: x(ed), Y: y(score), Shape: 0,
				Title: cr.Name + " · " + p.T("glance.score_point", ed, score)})
		}
		if len(xs) > 0 {
			b.Points = polyline(xs, ys)
			b.Value = chartText{X: c.PlotR + 8, Y: ys[len(ys)-1] + 4, Anchor: "start", Text: itoa(score)}
		}
		c.Bands = append(c.Bands, b)
		c.Table.Rows = append(c.Table.Rows, row)
		described = append(described, cr.Name+": "+strings.Join(row[1:], ", "))
	}
	c.Height = 6 + len(crit)*(histBand+histGap) + 12
	for i := range c.XTicks {
		c.XTicks[i].Y = c.Height - 2
	}
	c.Title = p.T("glance.scores_title", p.T("public.edition_short", first), p.T("public.edition_short", last))
	c.Desc = p.T("glance.scores_desc") + " " + strings.Join(described, "; ")
	return c
}

// waterfallChart is why an entry moved between two editions: its rank
// before, each part of the move (domain.SplitMove: its own scores, the
// others' scores, the methodology) as a bar from the rank before the step
// to the rank after it, and its rank after. Rank 1 is at the top, so a
// rise is a bar going up; each bar is labelled ▲n or ▼n as well.
type waterfallChart struct {
	chartFrame
	Bars  []waterfallBar
	Ticks []chartText
	PlotT int
	PlotB int
}

type waterfallBar struct {
	X, Y, W, H int
	Kind       string // start, end, up, down, same
	Label      chartText
	Name       chartText
}

const wfW, wfH, wfTop, wfBottom, wfPadL = 640, 220, 24, 170, 40

// waterfallOf draws m, the move from edition from to edition to.
func waterfallOf(p ui.Page, m domain.MoveSplit, from, to int) waterfallChart {
	c := waterfallChart{chartFrame: chartFrame{ID: "why-moved", Width: wfW, Height: wfH}, PlotT: wfTop, PlotB: wfBottom}
	own, others, method := m.Parts()
	steps := []struct {
		key          string
		before, rank int
		delta        int
	}{
		{"start", 0, m.RankFrom, 0},
		{"own_scores", m.RankFrom, m.RankOwn, own},
		{"others_scores", m.RankOwn, m.RankOthers, others},
		{"methodology", m.RankOthers, m.RankTo, method},
		{"end", 0, m.RankTo, 0},
	}
	lo, hi := m.RankFrom, m.RankFrom
	for _, s := range steps {
		lo, hi = min(lo, s.rank), max(hi, s.rank)
	}
	lo, hi = max(1, lo-1), hi+1
	y := func(rank int) int { return scale(rank, lo, hi, wfTop, wfBottom) }
	slot := (wfW - wfPadL) / len(steps)
	c.Table = chartTable{Caption: p.T("glance.why_table"), Head: []string{p.T("glance.why_step"), p.T("glance.why_move"), p.T("glance.why_after")}}
	var described []string
	for i, s := range steps {
		b := waterfallBar{X: wfPadL + i*slot + slot/5, W: slot * 3 / 5}
		var label, name string
		switch s.key {
		case "start", "end":
			b.Kind = s.key
			b.Y, b.H = y(s.rank), wfBottom-y(s.rank)
			label = "#" + itoa(s.rank)
			name = p.T("public.edition_short", from)
			if s.key == "end" {
				name = p.T("public.edition_short", to)
			}
		default:
			mv := rankMove(p, s.delta)
			b.Kind = mv.Kind
			top, bottom := y(min(s.before, s.rank)), y(max(s.before, s.rank))
			b.Y, b.H = top, max(bottom-top, 2)
			label = mv.Text
			name = p.T("changes.part_" + s.key)
			c.Table.Rows = append(c.Table.Rows, []string{name, mv.Label, "#" + itoa(s.rank)})
			described = append(described, name+": "+mv.Label+", "+p.T("changes.after", s.rank))
		}
		b.Label = chartText{X: b.X + b.W/2, Y: b.Y - 6, Anchor: "middle", Text: label}
		b.Name = chartText{X: b.X + b.W/2, Y: wfBottom + 18, Anchor: "middle", Text: clip(name, 16)}
		c.Bars = append(c.Bars, b)
	}
	for _, r := range ticksOf(lo, hi) {
		c.Ticks = append(c.Ticks, chartText{X: wfPadL - 8, Y: y(r) + 4, Anchor: "end", Text: "#" + itoa(r)})
	}
	c.Title = p.T("glance.why_title", p.T("public.edition_short", from), p.T("public.edition_short", to))
	c.Desc = p.T("changes.rank_move", m.RankFrom, m.RankTo, totalText(m.TotalFrom), totalText(m.TotalTo)) + " " + strings.Join(described, "; ")
	return c
}
