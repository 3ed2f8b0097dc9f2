package site

import (
	"strconv"
	"strings"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/web/ui"
)

// The charts are inline SVG drawn on the server from numbers: every
// attribute is a number formatted here, and names appear only as escaped
// text inside <title> and <text> elements.

// chartBar is one bar of a score chart.
type chartBar struct {
	X, Y, W, H string // geometry of the filled part
	TrackY     string // top of the empty track
	Off        bool   // the criterion weighs nothing in this view
	Title      string // "Delivery forms: 7/10", shown on hover
}

// sparkView is an entry's scores as a row of small vertical bars.
type sparkView struct {
	Width, Height string
	Bars          []chartBar
	Title         string
}

const (
	sparkStep   = 10 // horizontal distance between bars
	sparkBarW   = 7
	sparkHeight = 24
)

// sparkOf draws scores in the order of crit. weights decide which bars
// are faded (weight 0 in the chosen scenario).
func sparkOf(p ui.Page, crit []criterionView, scores map[string]int) sparkView {
	s := sparkView{Width: itoa(len(crit)*sparkStep - (sparkStep - sparkBarW)), Height: itoa(sparkHeight)}
	var parts []string
	for i, c := range crit {
		v := clampScore(scores[c.Slug])
		h := v * (sparkHeight - 2) / domain.MaxScore
		if v > 0 && h < 1 {
			h = 1
		}
		title := c.Name + ": " + itoa(v) + "/10"
		parts = append(parts, title)
		s.Bars = append(s.Bars, chartBar{X: itoa(i * sparkStep), Y: itoa(sparkHeight - h), W: itoa(sparkBarW), H: itoa(h),
			TrackY: "0", Off: c.Weight == 0, Title: title})
	}
	s.Title = p.T("public.scores_chart") + " — " + strings.Join(parts, ", ")
	return s
}

// meterView is one horizontal score bar, 0–10 over 100 units.
type meterView struct {
	Fill  string // width of the filled part
	Score int
}

func meterOf(score int) meterView {
	v := clampScore(score)
	return meterView{Fill: itoa(v * 10), Score: v}
}

// totalMeter is the total as a bar over 0–1000 → 0–100 units.
func totalMeter(total int) string { return itoa(min(max(total, 0), 1000) / 10) }

func clampScore(v int) int { return min(max(v, domain.MinScore), domain.MaxScore) }

// lineChartView is an entry's overall rank across editions.
type lineChartView struct {
	Width, Height string
	Points        string // the polyline's points
	Dots          []chartDot
	XLabels       []chartLabel
	YLabels       []chartLabel
	Single        bool // one edition: a dot, no line
}

type chartDot struct{ CX, CY, Title string }

type chartLabel struct{ X, Y, Text string }

const (
	lineW, lineH           = 320, 140
	linePadL, linePadR     = 34, 14
	linePadTop, lineBottom = 14, 112 // y of rank 1 and of the worst rank
)

// lineOf draws rank history: rank 1 at the top, editions left to right.
// worst is the lowest rank to leave room for (the number of entries).
func lineOf(p ui.Page, history []rankPoint, worst int) lineChartView {
	l := lineChartView{Width: itoa(lineW), Height: itoa(lineH), Single: len(history) == 1}
	if len(history) == 0 {
		return l
	}
	for _, h := range history {
		worst = max(worst, h.Rank)
	}
	worst = max(worst, 2)
	first, last := history[0].Edition, history[len(history)-1].Edition
	x := func(ed int) int {
		if last == first {
			return (linePadL + lineW - linePadR) / 2
		}
		return linePadL + (ed-first)*(lineW-linePadL-linePadR)/(last-first)
	}
	y := func(rank int) int { return linePadTop + (rank-1)*(lineBottom-linePadTop)/(worst-1) }
	var pts []string
	for _, h := range history {
		cx, cy := x(h.Edition), y(h.Rank)
		pts = append(pts, itoa(cx)+","+itoa(cy))
		l.Dots = append(l.Dots, chartDot{CX: itoa(cx), CY: itoa(cy),
			Title: p.T("public.history_point", h.Edition, h.Rank, totalText(h.Total))})
		l.XLabels = append(l.XLabels, chartLabel{X: itoa(cx), Y: itoa(lineH - 6), Text: p.T("public.edition_short", h.Edition)})
	}
	l.Points = strings.Join(pts, " ")
	l.YLabels = []chartLabel{
		{X: itoa(linePadL - 8), Y: itoa(y(1) + 4), Text: "#1"},
		{X: itoa(linePadL - 8), Y: itoa(y(worst) + 4), Text: "#" + itoa(worst)},
	}
	return l
}

// rankPoint is one edition of an entry's history.
type rankPoint struct{ Edition, Rank, Total int }

// totalText shows a weighted total (0–1000) on the 0.0–10.0 scale, rounded
// half up to one decimal with integers only.
func totalText(total int) string {
	t := (max(total, 0) + 5) / 10
	return strconv.Itoa(t/10) + "." + strconv.Itoa(t%10)
}

func itoa(n int) string { return strconv.Itoa(n) }
