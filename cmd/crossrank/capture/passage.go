package capture

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Passage is an archived copy's text as a reader sees it, with where an
// evidence item's excerpt stands in it: what reviewers read to see the
// quote in context.
type Passage struct {
	// Text is the copy's text: the visible text of HTML with a line break
	// per block, JSON's string values, plain text; whitespace runs within
	// a line collapsed to one space, blank lines dropped. "" when
	// Checked is false.
	Text string
	// Start and End are the byte offsets in Text of the shortest stretch
	// that reads as the excerpt; both -1 when it is not there.
	Start, End int
	// Checked says whether the copy had text to search, as QuoteFound's
	// checked does (false for PDF, other media types, undecodable
	// charsets and an empty excerpt).
	Checked bool
}

// Found reports whether the excerpt was located in the text.
func (p Passage) Found() bool { return p.Start >= 0 }

// FindPassage locates excerpt in body under QuoteFound's comparison (NFKC,
// case folding, whitespace folded, none beside CJK characters), and maps
// the match back to the text a reader sees, so the passage can be marked
// in it. A match QuoteFound sees is found here too, but for a quote whose
// combining marks a page splits across a tag (the mapping normalises one
// segment of text at a time; QuoteFound the whole text).
func FindPassage(body []byte, contentType, excerpt string) Passage {
	out := Passage{Start: -1, End: -1}
	want := normalize(excerpt)
	raw, ok := readerText(body, contentType)
	if want == "" || !ok {
		return out
	}
	out.Text, out.Checked = tidy(raw), true
	folded, from, to := normalizeMapped(out.Text)
	i := strings.Index(folded, want)
	if i < 0 {
		return out
	}
	out.Start, out.End = from[i], to[i+len(want)-1]
	return out
}

// tidy collapses the whitespace of a reader's text: runs within a line to
// one space, line breaks with the blank lines between them to one, and
// none at either end. normalize reads the result as it reads text.
func tidy(s string) string {
	var b strings.Builder
	for line := range strings.Lines(s) {
		if l := strings.Join(strings.Fields(line), " "); l != "" {
			if b.Len() > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(l)
		}
	}
	return b.String()
}

// normalizeMapped is normalize with a map back to s: for each byte of the
// result, from and to give the start and the end (exclusive) in s of the
// text it came from. It normalises s one NFKC segment at a time, so each
// output rune knows its source.
func normalizeMapped(s string) (out string, from, to []int) {
	var b strings.Builder
	var last rune // the last rune written; 0 before any
	space, spaceAt := false, 0
	write := func(r rune, start, end int) {
		n := utf8.RuneLen(r)
		b.WriteRune(r)
		for range n {
			from, to = append(from, start), append(to, end)
		}
		last = r
	}
	var it norm.Iter
	it.InitString(norm.NFKC, s)
	for !it.Done() {
		start := it.Pos()
		seg := fold.String(string(it.Next()))
		end := it.Pos()
		for _, r := range seg {
			if unicode.IsSpace(r) {
				if !space {
					space, spaceAt = true, start
				}
				continue
			}
			if space && last != 0 && !cjk(last) && !cjk(r) {
				write(' ', spaceAt, start)
			}
			space = false
			write(r, start, end)
		}
	}
	return b.String(), from, to
}
