package site

import (
	"strconv"
	"strings"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/web/ui"
)

// compareBars is the compared entries' scores as bars: a group per
// criterion, a bar per entry in the entries' order, each bar filled with
// its entry's pattern and ending in its score, with a legend above.
type compareBars struct {
	chartFrame
	Legend []compareLegend
	Groups []compareGroup
	PlotL  int
	PlotR  int
}

type compareLegend struct {
	X, Y    int
	Pattern string // the fill: url(#…) of the entry's pattern
	Class   string
	Text    chartText
}

type compareGroup struct {
	Label chartText
	Bars  []compareBar
	Rule  int // y of the line under the group
}

type compareBar struct {
	X, Y, W, H int
	Pattern    string
	Class      string
	Value      chartText
	Title      string
}

const (
	barsW, barsPadL, barsPadR = 640, 170, 40
	barH, barGap, groupGap    = 12, 3, 12
	barsLegend                = 28
)

// comparePatterns are the fills told apart without colour: solid,
// stripes, dots, cross-hatching (defined in the chart's <defs>).
var comparePatterns = []string{"", "url(#cmp-p1)", "url(#cmp-p2)", "url(#cmp-p3)"}

// compareBarsOf draws v's criteria for its columns; unscored cells have no
// bar and say so.
func compareBarsOf(p ui.Page, v compareView) compareBars {
	if len(v.Columns) < 2 {
		return compareBars{}
	}
	c := compareBars{chartFrame: chartFrame{ID: "compare-bars", Width: barsW}, PlotL: barsPadL, PlotR: barsW - barsPadR}
	x := func(score int) int { return scale(score, 0, domain.MaxScore, c.PlotL, c.PlotR) }
	c.Table = chartTable{Caption: p.T("glance.bars_table"), Head: []string{p.T("public.criterion")}}
	step := (barsW - 20) / len(v.Columns)
	for i, col := range v.Columns {
		c.Legend = append(c.Legend, compareLegend{X: 10 + i*step, Y: 8, Pattern: comparePatterns[i%len(comparePatterns)], Class: seriesClass(i),
			Text: chartText{X: 10 + i*step + 20, Y: 18, Anchor: "start", Text: clip(col.Name, 18)}})
		c.Table.Head = append(c.Table.Head, col.Name)
	}
	y := barsLegend
	var described []string
	for _, cr := range v.Criteria {
		g := compareGroup{}
		top := y
		row := []string{cr.Name}
		var says []string
		for i, cell := range cr.Cells {
			score, err := strconv.Atoi(cell.Score)
			b := compareBar{X: c.PlotL, Y: y, H: barH, Pattern: comparePatterns[i%len(comparePatterns)], Class: seriesClass(i)}
			name := v.Columns[i].Name
			if err != nil {
				b.Value = chartText{X: c.PlotL + 4, Y: y + barH - 2, Anchor: "start", Text: "–"}
				row = append(row, "–")
				says = append(says, name+" –")
			} else {
				b.W = max(x(score)-c.PlotL, 1)
				b.Value = chartText{X: c.PlotL + b.W + 4, Y: y + barH - 2, Anchor: "start", Text: itoa(score)}
				row = append(row, itoa(score))
				says = append(says, name+" "+itoa(score))
			}
			b.Title = cr.Name + " · " + name + ": " + b.Value.Text
			if err != nil {
				b.Title = cr.Name + " · " + name + ": " + p.T("public.unscored")
			}
			g.Bars = append(g.Bars, b)
			y += barH + barGap
		}
		g.Label = chartText{X: c.PlotL - 10, Y: (top+y-barGap)/2 + 4, Anchor: "end", Text: clip(cr.Name, 22)}
		y += groupGap
		g.Rule = y - groupGap/2
		c.Groups = append(c.Groups, g)
		c.Table.Rows = append(c.Table.Rows, row)
		described = append(described, cr.Name+": "+strings.Join(says, ", "))
	}
	c.Height = y + 4
	var names []string
	for _, col := range v.Columns {
		names = append(names, col.Name)
	}
	c.Title = p.T("glance.bars_title", strings.Join(names, ", "))
	c.Desc = p.T("glance.bars_desc") + " " + strings.Join(described, "; ")
	return c
}
