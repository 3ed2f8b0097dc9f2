package i18n

import (
	"strings"
	"testing"
)

// TestKindWordsTakeTheirArguments: inbox and contact-timeline sentences
// are formatted with every argument their caller has (actor and proposal;
// vendor, subject and detail), whether or not the sentence shows each; a
// sentence that leaves one out must name the ones it shows by index, or
// fmt appends "%!(EXTRA …)" to what the reader sees.
func TestKindWordsTakeTheirArguments(t *testing.T) {
	for _, lang := range []string{En, Zh} {
		for key := range catalog(lang) {
			var args []any
			switch {
			case strings.HasPrefix(key, "inbox.kind."):
				args = []any{"someone", "p1"}
			case strings.HasPrefix(key, "contact.kind."):
				args = []any{"someone", "s1", "d1"}
			default:
				continue
			}
			if got := T(lang, key, args...); strings.Contains(got, "%!") {
				t.Errorf("%s %s: %q", lang, key, got)
			}
		}
	}
}
