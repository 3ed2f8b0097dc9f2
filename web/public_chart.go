package web

import (
	"strconv"
	"strings"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/web/ui"
)

// The charts are inline SVG drawn on the server from numbers: every
// attribute is a number formatted here, and names appear only as escaped
// text inside <title> and <text> elements.

// pubBar is one bar of a score chart.
type pubBar struct {
	X, Y, W, H string // geometry of the filled part
	TrackY     string // top of the empty track
	Off        bool   // the criterion weighs nothing in this view
	Title      string // "Delivery forms: 7/10", shown on hover
}

// pubSpark is an entry's scores as a row of small vertical bars.
type pubSpark struct {
	Width, Height string
	Bars          []pubBar
	Title         string
}

const (
	pubSparkStep   = 10 // horizontal distance between bars
	pubSparkBarW   = 7
	pubSparkHeight = 24
)

// pubSparkOf draws scores in the order of crit. weights decide which bars
// are faded (weight 0 in the chosen scenario).
func pubSparkOf(p ui.Page, crit []pubCriterion, scores map[string]int) pubSpark {
	s := pubSpark{Width: pubItoa(len(crit)*pubSparkStep - (pubSparkStep - pubSparkBarW)), Height: pubItoa(pubSparkHeight)}
	var parts []string
	for i, c := range crit {
		v := pubClampScore(scores[c.Slug])
		h := v * (pubSparkHeight - 2) / domain.MaxScore
		if v > 0 && h < 1 {
			h = 1
		}
		title := c.Name + ": " + pubItoa(v) + "/10"
		parts = append(parts, title)
		s.Bars = append(s.Bars, pubBar{X: pubItoa(i * pubSparkStep), Y: pubItoa(pubSparkHeight - h), W: pubItoa(pubSparkBarW), H: pubItoa(h),
			TrackY: "0", Off: c.Weight == 0, Title: title})
	}
	s.Title = p.T("public.scores_chart") + " — " + strings.Join(parts, ", ")
	return s
}

// pubMeter is one horizontal score bar, 0–10 over 100 units.
type pubMeter struct {
	Fill  string // width of the filled part
	Score int
}

func pubMeterOf(score int) pubMeter {
	v := pubClampScore(score)
	return pubMeter{Fill: pubItoa(v * 10), Score: v}
}

// pubTotalMeter is the total as a bar over 0–1000 → 0–100 units.
func pubTotalMeter(total int) string { return pubItoa(min(max(total, 0), 1000) / 10) }

func pubClampScore(v int) int { return min(max(v, domain.MinScore), domain.MaxScore) }

// pubLine is an entry's overall rank across editions.
type pubLine struct {
	Width, Height string
	Points        string // the polyline's points
	Dots          []pubDot
	XLabels       []pubLabel
	YLabels       []pubLabel
	Single        bool // one edition: a dot, no line
}

type pubDot struct{ CX, CY, Title string }

type pubLabel struct{ X, Y, Text string }

const (
	pubLineW, pubLineH           = 320, 140
	pubLinePadL, pubLinePadR     = 34, 14
	pubLinePadTop, pubLineBottom = 14, 112 // y of rank 1 and of the worst rank
)

// pubLineOf draws rank history: rank 1 at the top, editions left to right.
// worst is the lowest rank to leave room for (the number of entries).
func pubLineOf(p ui.Page, history []pubRankPoint, worst int) pubLine {
	l := pubLine{Width: pubItoa(pubLineW), Height: pubItoa(pubLineH), Single: len(history) == 1}
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
			return (pubLinePadL + pubLineW - pubLinePadR) / 2
		}
		return pubLinePadL + (ed-first)*(pubLineW-pubLinePadL-pubLinePadR)/(last-first)
	}
	y := func(rank int) int { return pubLinePadTop + (rank-1)*(pubLineBottom-pubLinePadTop)/(worst-1) }
	var pts []string
	for _, h := range history {
		cx, cy := x(h.Edition), y(h.Rank)
		pts = append(pts, pubItoa(cx)+","+pubItoa(cy))
		l.Dots = append(l.Dots, pubDot{CX: pubItoa(cx), CY: pubItoa(cy),
			Title: p.T("public.history_point", h.Edition, h.Rank, pubTotalText(h.Total))})
		l.XLabels = append(l.XLabels, pubLabel{X: pubItoa(cx), Y: pubItoa(pubLineH - 6), Text: p.T("public.edition_short", h.Edition)})
	}
	l.Points = strings.Join(pts, " ")
	l.YLabels = []pubLabel{
		{X: pubItoa(pubLinePadL - 8), Y: pubItoa(y(1) + 4), Text: "#1"},
		{X: pubItoa(pubLinePadL - 8), Y: pubItoa(y(worst) + 4), Text: "#" + pubItoa(worst)},
	}
	return l
}

// pubRankPoint is one edition of an entry's history.
type pubRankPoint struct{ Edition, Rank, Total int }

// pubTotalText shows a weighted total (0–1000) on the 0.0–10.0 scale, rounded
// half up to one decimal with integers only.
func pubTotalText(total int) string {
	t := (max(total, 0) + 5) / 10
	return strconv.Itoa(t/10) + "." + strconv.Itoa(t%10)
}

func pubItoa(n int) string { return strconv.Itoa(n) }
