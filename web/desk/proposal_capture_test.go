package desk

import (
	"slices"
	"testing"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/web/i18n"
)

// TestSourceReasonsHaveWords: every reason a capture may fail with, and
// every reason a re-check may find a source gone with, has words in both
// catalogs (which the catalogs' own test keeps with the same keys).
func TestSourceReasonsHaveWords(t *testing.T) {
	for _, code := range slices.Concat(domain.CaptureReasons, domain.DeadReasons) {
		if !i18n.Has("desk.source.reason." + code) {
			t.Errorf("reason %q has no words", code)
		}
	}
}
