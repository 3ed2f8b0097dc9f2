package desk

import (
	"strconv"

	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/i18n"
	"github.com/crossrank/crossrank/web/ui"
)

// importCapturesView is how far the capture of the imported ranking's
// sources has come, on a done import's page.
type importCapturesView struct {
	Summary string // "1,785 of 30,000 sources captured, 412 failed"
	Waiting string // "27,803 wait for their first attempt or a retry…"; "" when none does
	// Retrying is "412 sources on the desk are failing now…"; "" when
	// none is, or when the server does not count them.
	Retrying string
	Percent  int // of the sources with a result
}

// importCapturesOf words a ranking's capture progress, and the desk's
// sources failing now (retrying); nil when the ranking cites no web page.
func importCapturesOf(p ui.Page, c projections.CaptureProgress, retrying int) *importCapturesView {
	if c.Sources == 0 {
		return nil
	}
	v := &importCapturesView{
		Summary: plural(p.Lang, "desk.import.captures", c.Sources, grouped(c.Captured), grouped(c.Sources), grouped(c.Failed)),
		Percent: (c.Captured + c.Failed) * 100 / c.Sources,
	}
	if n := c.Pending(); n > 0 {
		v.Waiting = plural(p.Lang, "desk.import.captures_waiting", n, grouped(n))
	}
	if retrying > 0 {
		v.Retrying = p.T(i18n.PluralKey(p.Lang, "desk.import.captures_retrying", retrying), grouped(retrying))
	}
	return v
}

// grouped writes n with its thousands set apart by commas, as both the
// English and the Chinese desk write large counts: 30000 → "30,000".
func grouped(n int) string {
	s := strconv.Itoa(n)
	neg := ""
	if n < 0 {
		neg, s = "-", s[1:]
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return neg + s
}
