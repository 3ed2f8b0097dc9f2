package site

import (
	"strconv"

	"github.com/crossrank/crossrank/domain"
)

// The charts are inline SVG drawn on the server from numbers: every
// attribute is a number formatted here, and names appear only as escaped
// text inside <title>, <desc> and <text> elements (chart_frame.go).

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

// totalText shows a weighted total (0–1000) on the 0.0–10.0 scale, rounded
// half up to one decimal with integers only.
func totalText(total int) string {
	t := (max(total, 0) + 5) / 10
	return strconv.Itoa(t/10) + "." + strconv.Itoa(t%10)
}

func itoa(n int) string { return strconv.Itoa(n) }
