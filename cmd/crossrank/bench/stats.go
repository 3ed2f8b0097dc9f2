package bench

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
)

// series holds one figure measured once per run.
type series []float64

func (s series) sorted() []float64 { return slices.Sorted(slices.Values(s)) }

// median returns the middle value (the mean of the two middle ones for an
// even count); NaN when empty.
func (s series) median() float64 {
	v := s.sorted()
	switch n := len(v); {
	case n == 0:
		return math.NaN()
	case n%2 == 1:
		return v[n/2]
	default:
		return (v[n/2-1] + v[n/2]) / 2
	}
}

// show formats the median and, over several runs, the range: "412 (398–430)".
func (s series) show(f func(float64) string) string {
	if len(s) == 0 {
		return "—"
	}
	v := s.sorted()
	if len(v) == 1 || v[0] == v[len(v)-1] {
		return f(s.median())
	}
	return fmt.Sprintf("%s (%s–%s)", f(s.median()), f(v[0]), f(v[len(v)-1]))
}

// Number formats for the tables.
func fmtRate(v float64) string {
	switch {
	case v >= 100_000:
		return fmt.Sprintf("%.0fk", v/1000)
	case v >= 10_000:
		return fmt.Sprintf("%.1fk", v/1000)
	case v >= 100:
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.1f", v)
}

func fmtRatio(v float64) string { return fmt.Sprintf("%.2f", v) }
func fmtTimes(v float64) string { return fmt.Sprintf("%.2f×", v) }
func fmtMiB(v float64) string   { return fmt.Sprintf("%.0f MiB", v) }

// fmtMs formats milliseconds with a precision that suits the size.
func fmtMs(v float64) string {
	switch {
	case v >= 1000:
		return fmt.Sprintf("%.2f s", v/1000)
	case v >= 10:
		return fmt.Sprintf("%.0f ms", v)
	}
	return fmt.Sprintf("%.1f ms", v)
}

// percentile returns the q-quantile (0 < q ≤ 1) of d by the nearest-rank
// method: the smallest value with at least q of the samples at or below it.
func percentile(d []time.Duration, q float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	v := slices.Sorted(slices.Values(d))
	i := int(math.Ceil(q*float64(len(v)))) - 1
	return v[max(0, min(i, len(v)-1))]
}

func millis(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// table is a Markdown table.
type table struct {
	head []string
	rows [][]string
}

func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

func (t *table) String() string {
	var b strings.Builder
	line := func(cells []string) {
		b.WriteString("|")
		for _, c := range cells {
			b.WriteString(" " + c + " |")
		}
		b.WriteString("\n")
	}
	line(t.head)
	sep := make([]string, len(t.head))
	for i := range sep {
		sep[i] = "---"
	}
	line(sep)
	for _, r := range t.rows {
		line(r)
	}
	return b.String()
}

// verdict marks whether a figure meets its aim.
func verdict(ok bool) string {
	if ok {
		return "meets"
	}
	return "**misses**"
}
