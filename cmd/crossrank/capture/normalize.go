package capture

import (
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

var fold = cases.Fold()

// normalize puts s in the form QuoteFound compares: NFKC, case-folded,
// whitespace collapsed, no whitespace beside CJK characters.
//
// It normalises a segment at a time, as the norm package does inside: a
// segment starts at each character before which NFKC always breaks
// (norm's BoundaryBefore) and holds the combining marks that follow it.
// Folding maps each character on its own. The text is mostly ASCII and
// common Han characters, which NFKC and folding leave alone (ASCII's upper
// case aside) and which are copied straight through; another character
// standing alone is looked up once per text. Only a character with marks
// goes through the library's passes, which over a whole page cost most
// of a capture. TestNormalizeSegments holds the result to the whole
// text's NFKC and folding.
func normalize(s string) string {
	w := spaceFolder{out: make([]byte, 0, len(s))}
	var alone map[rune]string // fold(NFKC(r)) of each character that stood alone
	r, n := utf8.DecodeRuneInString(s)
	for i := 0; i < len(s); {
		// The segment is s[i:j]; next, of width m, begins the one after.
		j, next, m := i+n, rune(0), 0
		for j < len(s) {
			next, m = utf8.DecodeRuneInString(s[j:])
			if inert(next) || norm.NFKC.PropertiesString(s[j:]).BoundaryBefore() {
				break
			}
			j += m
		}
		switch {
		case j == i+n && inert(r):
			w.add(foldInert(r))
		case j == i+n && r != utf8.RuneError:
			out, ok := alone[r]
			if !ok {
				if alone == nil {
					alone = map[rune]string{}
				}
				out = fold.String(norm.NFKC.String(s[i:j]))
				alone[r] = out
			}
			w.addString(out)
		default:
			w.addString(fold.String(norm.NFKC.String(s[i:j])))
		}
		i, r, n = j, next, m
	}
	return string(w.out)
}

// inert reports whether NFKC and case folding leave r alone but for
// ASCII's upper case, and NFKC breaks before it: ASCII and the CJK
// Unified Ideographs block.
func inert(r rune) bool {
	return r < utf8.RuneSelf || r >= 0x4e00 && r <= 0x9fff
}

// foldInert case-folds an inert character.
func foldInert(r rune) rune {
	if 'A' <= r && r <= 'Z' {
		return r + 'a' - 'A'
	}
	return r
}

// spaceFolder collects normalised text, collapsing each whitespace run to
// one space and dropping it beside a CJK character or at the start.
type spaceFolder struct {
	out     []byte
	space   bool // whitespace seen since the last character written
	lastCJK bool // the last character written is CJK
}

func (w *spaceFolder) add(r rune) {
	if r < utf8.RuneSelf {
		if asciiSpace[r] {
			w.space = true
			return
		}
		if w.space && len(w.out) > 0 && !w.lastCJK {
			w.out = append(w.out, ' ')
		}
		w.space, w.lastCJK = false, false
		w.out = append(w.out, byte(r))
		return
	}
	c := r >= 0x4e00 && r <= 0x9fff
	if !c && unicode.IsSpace(r) {
		w.space = true
		return
	}
	c = c || cjk(r)
	if w.space && len(w.out) > 0 && !w.lastCJK && !c {
		w.out = append(w.out, ' ')
	}
	w.space, w.lastCJK = false, c
	w.out = utf8.AppendRune(w.out, r)
}

func (w *spaceFolder) addString(s string) {
	for _, r := range s {
		w.add(r)
	}
}

// asciiSpace are the ASCII characters unicode.IsSpace reports.
var asciiSpace = [utf8.RuneSelf]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}
