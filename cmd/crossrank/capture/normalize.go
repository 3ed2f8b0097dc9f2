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
// standing alone is looked up once (CJK punctuation and full-width forms
// once for all). Only a character with marks
// goes through the library's passes, which over a whole page cost most
// of a capture. TestNormalizeSegments holds the result to the whole
// text's NFKC and folding.
func normalize(s string) string {
	w := spaceFolder{out: make([]byte, 0, len(s))}
	var alone map[rune]string // fold(NFKC(r)) of other characters that stood alone
	for i := 0; i < len(s); {
		// ASCII followed by ASCII, the commonest case: a byte at a time.
		if c := s[i]; c < utf8.RuneSelf && (i+1 == len(s) || s[i+1] < utf8.RuneSelf) {
			w.add(foldInert(rune(c)))
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r >= 0x4e00 && r <= 0x9fff && (i+n == len(s) || boundaryBefore(s[i+n:])) {
			// A Han character on its own, the next commonest: its bytes
			// as they are, and no space beside it.
			w.out = append(w.out, s[i:i+n]...)
			w.space, w.lastCJK = false, true
			i += n
			continue
		}
		j := i + n // the segment is s[i:j]
		for j < len(s) && !boundaryBefore(s[j:]) {
			_, m := utf8.DecodeRuneInString(s[j:])
			j += m
		}
		switch {
		case j > i+n || r == utf8.RuneError:
			w.addString(fold.String(norm.NFKC.String(s[i:j])))
		case inert(r):
			w.add(foldInert(r))
		default:
			if f, ok := cjkForm(r); ok {
				w.addString(f.out)
				break
			}
			out, ok := alone[r]
			if !ok {
				if alone == nil {
					alone = map[rune]string{}
				}
				out = fold.String(norm.NFKC.String(s[i:j]))
				alone[r] = out
			}
			w.addString(out)
		}
		i = j
	}
	return string(w.out)
}

// boundaryBefore reports whether NFKC breaks before the character s
// begins with: nothing before it combines with it.
func boundaryBefore(s string) bool {
	if s[0] < utf8.RuneSelf {
		return true
	}
	r, _ := utf8.DecodeRuneInString(s)
	if inert(r) {
		return true
	}
	if f, ok := cjkForm(r); ok {
		return f.boundary
	}
	return norm.NFKC.PropertiesString(s).BoundaryBefore()
}

// form is a character's NFKC and folding, standing alone, and whether
// NFKC breaks before it.
type form struct {
	out      string
	boundary bool
}

// cjkForms are the forms of the CJK punctuation and the full- and
// half-width forms (U+3000–U+303F, U+FF00–U+FFEF), which Chinese text
// has between nearly every phrase.
var cjkForms = func() (t [0x40 + 0xf0]form) {
	for i := range t {
		r := rune(0x3000 + i)
		if i >= 0x40 {
			r = rune(0xff00 + i - 0x40)
		}
		t[i] = form{fold.String(norm.NFKC.String(string(r))), norm.NFKC.PropertiesString(string(r)).BoundaryBefore()}
	}
	return t
}()

func cjkForm(r rune) (*form, bool) {
	switch {
	case r >= 0x3000 && r <= 0x303f:
		return &cjkForms[r-0x3000], true
	case r >= 0xff00 && r <= 0xffef:
		return &cjkForms[0x40+r-0xff00], true
	}
	return nil, false
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
