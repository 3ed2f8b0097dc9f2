package site

import (
	"strconv"
	"strings"
)

// Every picture the site draws is inline SVG made here, on the server:
// readable without script, cached with its page, carried by the static
// export. Each has a <title> and a <desc>, and the same numbers as a
// table (chartTable) behind a disclosure, for screen readers and for
// anyone who would rather read them. Series differ by marker shape, dash
// and a label at their end as well as by colour, so no reading depends on
// hue; the colours are the stylesheet's (public.css), set for both themes.

// chartFrame is what every chart shares: its size, its words, its numbers.
type chartFrame struct {
	ID            string // the id its title and description are found by
	Title, Desc   string
	Width, Height int
	Table         chartTable
}

// ViewBox is the SVG's viewBox.
func (f chartFrame) ViewBox() string { return "0 0 " + itoa(f.Width) + " " + itoa(f.Height) }

// Labelled is the SVG's aria-labelledby: its title and description.
func (f chartFrame) Labelled() string { return f.ID + "-t " + f.ID + "-d" }

// chartTable is a chart's numbers as a table.
type chartTable struct {
	Caption string
	Head    []string
	Rows    [][]string // the first cell of each heads its row
}

// chartMark is one data point: where, which marker shape, what it says on
// hover.
type chartMark struct {
	X, Y  int
	Shape int // 0 circle, 1 square, 2 triangle, 3 diamond
	Title string
}

// Path is the marker as an SVG path centred on the point, so one element
// draws every shape.
func (m chartMark) Path() string {
	x, y := m.X, m.Y
	switch m.Shape % 4 {
	case 1:
		return "M" + pt(x-4, y-4) + "h8v8h-8z"
	case 2:
		return "M" + pt(x, y-5) + "l5 9h-10z"
	case 3:
		return "M" + pt(x, y-5) + "l5 5-5 5-5-5z"
	}
	return "M" + pt(x-4, y) + "a4 4 0 1 0 8 0a4 4 0 1 0-8 0"
}

// chartText is a label placed on a chart.
type chartText struct {
	X, Y   int
	Anchor string // start, middle or end
	Text   string
}

func pt(x, y int) string { return strconv.Itoa(x) + " " + strconv.Itoa(y) }

// polyline joins points as the points attribute of a <polyline>.
func polyline(xs, ys []int) string {
	var b strings.Builder
	for i := range xs {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.Itoa(xs[i]) + "," + strconv.Itoa(ys[i]))
	}
	return b.String()
}

// seriesCount is how many series styles the stylesheet defines
// (.pub-s0 … .pub-s7): colours from the Okabe–Ito palette, each with its
// own dash.
const seriesCount = 8

func seriesClass(i int) string { return "pub-s" + itoa(i%seriesCount) }

// scale maps v in [lo, hi] onto [a, b] in integers; a one-value domain
// maps to the middle.
func scale(v, lo, hi, a, b int) int {
	if hi == lo {
		return (a + b) / 2
	}
	return a + (v-lo)*(b-a)/(hi-lo)
}
