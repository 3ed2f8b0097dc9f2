package site

import (
	"strings"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/ui"
)

// bumpTop is how many of the top entries the rank charts follow.
const bumpTop = 10

// bumpEditions is how many of the latest editions a bump chart spans.
const bumpEditions = 12

// bumpChart is ranks across editions: a line per entry, rank 1 on top,
// each line ending in its rank and name. The entry in view (if any) is
// drawn thicker and named first in the description.
type bumpChart struct {
	chartFrame
	Series []bumpSeries
	XTicks []chartText
	YTicks []chartText
	Grid   []int // y of each rank line
	PlotL  int
	PlotR  int
}

// bumpSeries is one entry's line.
type bumpSeries struct {
	Class  string
	Focus  bool
	Points string
	Marks  []chartMark
	Label  chartText
}

const (
	bumpW                   = 640
	bumpPadL, bumpPadR      = 34, 190 // the right margin holds the names
	bumpPadTop, bumpRowStep = 14, 22
)

// bumpOf draws the rank histories of entries (in the order given, the
// best first) over the editions they span, the last bumpEditions of them.
// focus ("" for none) is the entry in view: drawn as the first series'
// style but thicker, and listed first. Ranks below the chart's last row
// sit on a row of their own marked "> n".
func bumpOf(p ui.Page, entries []string, hist map[string][]projections.RankPoint, names map[string]string, focus string) bumpChart {
	c := bumpChart{chartFrame: chartFrame{ID: "bump-" + or(focus, "top"), Width: bumpW}}
	last := 0
	for _, e := range entries {
		if h := hist[e]; len(h) > 0 {
			last = max(last, h[len(h)-1].Edition)
		}
	}
	if last == 0 {
		return bumpChart{}
	}
	earliest := last
	for _, e := range entries {
		if h := hist[e]; len(h) > 0 {
			earliest = min(earliest, h[0].Edition)
		}
	}
	first := max(1, last-bumpEditions+1, earliest)
	rows := len(entries) // the chart's rows: ranks 1 … rows, then "> rows"
	worst := 0
	for _, e := range entries {
		for _, h := range hist[e] {
			if h.Edition >= first {
				worst = max(worst, h.Rank)
			}
		}
	}
	rows = max(rows, min(worst, rows+2))
	beyond := worst > rows
	n := rows
	if beyond {
		n++
	}
	c.Height = bumpPadTop + n*bumpRowStep + 16
	c.PlotL, c.PlotR = bumpPadL, bumpW-bumpPadR
	x := func(ed int) int { return scale(ed, first, last, c.PlotL, c.PlotR) }
	y := func(rank int) int { return bumpPadTop + (min(rank, rows+1)-1)*bumpRowStep + bumpRowStep/2 }
	for r := 1; r <= n; r++ {
		c.Grid = append(c.Grid, y(r))
		text := "#" + itoa(r)
		if r > rows {
			text = "> " + itoa(rows)
		}
		if r == 1 || r == n || r%5 == 0 || r == rows {
			c.YTicks = append(c.YTicks, chartText{X: c.PlotL - 8, Y: y(r) + 4, Anchor: "end", Text: text})
		}
	}
	for ed := first; ed <= last; ed++ {
		if last-first < 8 || ed == first || ed == last || (ed-first)%2 == 0 {
			c.XTicks = append(c.XTicks, chartText{X: x(ed), Y: c.Height - 4, Anchor: "middle", Text: p.T("public.edition_short", ed)})
		}
	}
	c.Table = chartTable{Caption: p.T("glance.bump_table"), Head: []string{p.T("glance.col_name")}}
	for ed := first; ed <= last; ed++ {
		c.Table.Head = append(c.Table.Head, p.T("public.edition_short", ed))
	}
	var described []string
	for i, e := range entries {
		s := bumpSeries{Class: seriesClass(i), Focus: e == focus}
		var xs, ys []int
		row := make([]string, last-first+2)
		row[0] = orSlug(names[e], e)
		for j := range row[1:] {
			row[j+1] = "–"
		}
		for _, h := range hist[e] {
			if h.Edition < first {
				continue
			}
			xs, ys = append(xs, x(h.Edition)), append(ys, y(h.Rank))
			s.Marks = append(s.Marks, chartMark{X: x(h.Edition), Y: y(h.Rank), Shape: i,
				Title: orSlug(names[e], e) + " · " + p.T("public.history_point", h.Edition, h.Rank, totalText(h.Total))})
			row[h.Edition-first+1] = itoa(h.Rank)
		}
		if len(xs) == 0 {
			continue
		}
		s.Points = polyline(xs, ys)
		lastRank := hist[e][len(hist[e])-1].Rank
		s.Label = chartText{X: c.PlotR + 10, Y: ys[len(ys)-1] + 4, Anchor: "start", Text: "#" + itoa(lastRank) + " " + clip(orSlug(names[e], e), 22)}
		c.Series = append(c.Series, s)
		c.Table.Rows = append(c.Table.Rows, row)
		line := p.T("glance.bump_line", orSlug(names[e], e), strings.Join(row[1:], ", "))
		if e == focus {
			described = append([]string{line}, described...)
		} else {
			described = append(described, line)
		}
	}
	if len(c.Series) == 0 {
		return bumpChart{}
	}
	// Labels at the end of lines that finish on the same row would sit on
	// one another: only the first of each row keeps its label there.
	seen := map[int]bool{}
	for i := range c.Series {
		if seen[c.Series[i].Label.Y] {
			c.Series[i].Label.Text = ""
		}
		seen[c.Series[i].Label.Y] = true
	}
	c.Title = p.T("glance.bump_title", p.T("public.edition_short", first), p.T("public.edition_short", last))
	c.Desc = p.T("glance.bump_desc") + " " + strings.Join(described, "; ")
	return c
}

// clip shortens s to n characters with an ellipsis.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// sparkLine is a row's rank across its last editions, a few pixels high,
// rank 1 on top; its title says the numbers.
type sparkLine struct {
	Points string
	Last   chartMark
	Title  string
}

const sparkLineW, sparkLineH, sparkLineN = 48, 16, 8

// rankSpark draws hist's last sparkLineN editions, scaled to the entry's
// own best and worst rank among them; nothing for fewer than two.
func rankSpark(p ui.Page, hist []projections.RankPoint) sparkLine {
	if len(hist) < 2 {
		return sparkLine{}
	}
	hist = hist[max(0, len(hist)-sparkLineN):]
	lo, hi := hist[0].Rank, hist[0].Rank
	for _, h := range hist {
		lo, hi = min(lo, h.Rank), max(hi, h.Rank)
	}
	var xs, ys []int
	var ranks []string
	for i, h := range hist {
		xs = append(xs, scale(i, 0, len(hist)-1, 2, sparkLineW-2))
		ys = append(ys, scale(h.Rank, lo, hi, 3, sparkLineH-3))
		ranks = append(ranks, itoa(h.Rank))
	}
	return sparkLine{Points: polyline(xs, ys), Last: chartMark{X: xs[len(xs)-1], Y: ys[len(ys)-1]},
		Title: p.T("glance.spark_title", hist[0].Edition, hist[len(hist)-1].Edition, strings.Join(ranks, ", "))}
}

// intervalChart is the stability of ranks: for each entry, its rank as a
// dot and, when one removed score or a weight moved by 5 points could
// move it, the span of ranks it could reach, on one rank axis.
type intervalChart struct {
	chartFrame
	Rows  []intervalRow
	Ticks []chartText
	AxisY int
	PlotL int
	PlotR int
}

type intervalRow struct {
	Y          int
	Label      chartText
	X1, X2     int // the reach; equal when stable
	Mark       chartMark
	Stable     bool
	TierBorder bool // a new tier starts at this row
}

const (
	intervalW, intervalPadL, intervalPadR = 640, 200, 24
	intervalStep, intervalTop             = 22, 10
)

// intervalOf draws rows' stability intervals (the overall order's).
func intervalOf(p ui.Page, rows []entryRow, stab map[string]domain.EntryStability) intervalChart {
	c := intervalChart{chartFrame: chartFrame{ID: "reach", Width: intervalW}, PlotL: intervalPadL, PlotR: intervalW - intervalPadR}
	lo, hi := 0, 0
	for _, r := range rows {
		e, ok := stab[r.Slug]
		if !ok {
			continue
		}
		if lo == 0 {
			lo, hi = e.Best, e.Worst
		}
		lo, hi = min(lo, e.Best, r.Rank), max(hi, e.Worst, r.Rank)
	}
	if lo == 0 {
		return intervalChart{}
	}
	x := func(rank int) int { return scale(rank, lo, hi, c.PlotL+6, c.PlotR-6) }
	c.Table = chartTable{Caption: p.T("glance.reach_table"),
		Head: []string{p.T("glance.col_name"), "#", p.T("glance.reach_best"), p.T("glance.reach_worst"), p.T("glance.col_tier")}}
	var described []string
	prevTier := 0
	for i, r := range rows {
		e, ok := stab[r.Slug]
		if !ok {
			continue
		}
		y := intervalTop + i*intervalStep + intervalStep/2
		ir := intervalRow{Y: y, X1: x(e.Best), X2: x(e.Worst), Stable: e.Others == 0,
			Label:      chartText{X: c.PlotL - 10, Y: y + 4, Anchor: "end", Text: "#" + itoa(r.Rank) + " " + clip(r.Name, 20)},
			Mark:       chartMark{X: x(r.Rank), Y: y, Title: r.Name + ": " + p.T("glance.reach_point", r.Rank, e.Best, e.Worst)},
			TierBorder: prevTier != 0 && e.Tier != prevTier}
		prevTier = e.Tier
		c.Rows = append(c.Rows, ir)
		c.Table.Rows = append(c.Table.Rows, []string{r.Name, itoa(r.Rank), itoa(e.Best), itoa(e.Worst), itoa(e.Tier)})
		described = append(described, r.Name+" "+p.T("glance.reach_point", r.Rank, e.Best, e.Worst))
	}
	c.Height = intervalTop + len(c.Rows)*intervalStep + 28
	c.AxisY = intervalTop + len(c.Rows)*intervalStep + 4
	for _, rank := range ticksOf(lo, hi) {
		c.Ticks = append(c.Ticks, chartText{X: x(rank), Y: c.AxisY + 16, Anchor: "middle", Text: "#" + itoa(rank)})
	}
	c.Title = p.T("glance.reach_title")
	c.Desc = p.T("glance.reach_desc") + " " + strings.Join(described, "; ")
	return c
}

// ticksOf picks at most six round ranks from lo to hi, both included.
func ticksOf(lo, hi int) []int {
	step := 1
	for (hi-lo)/step > 5 {
		switch {
		case step == 1:
			step = 2
		case step == 2:
			step = 5
		default:
			step *= 2
		}
	}
	out := []int{lo}
	for r := (lo/step + 1) * step; r < hi; r += step {
		if r-out[len(out)-1] >= step/2+1 || step == 1 {
			out = append(out, r)
		}
	}
	if hi != lo {
		out = append(out, hi)
	}
	return out
}
