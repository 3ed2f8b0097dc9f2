package projections

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// The full-text index (migration 026) reads documents with FTS's simple
// tokenizer, which splits at ASCII characters other than letters and
// digits and folds ASCII case only. Chinese has no spaces, so words cannot
// be its unit: the indexed text spells each run of CJK characters as its
// overlapping bigrams followed by its last character alone ("智星云" is
// "智星 星云 云"), and a query's run is found as the phrase of its bigrams —
// any substring of two characters or more — or one character as the prefix
// of a bigram or of a run's end. Other scripts are read by words. The
// indexed text separates the tokens it adds with tokenSep, which the
// tokenizer takes for a separator and readable removes again, so that a
// snippet of it reads as the document did.

// tokenSep separates the tokens segmentation adds to a document's text.
const tokenSep = '\x1f'

// cjk reports whether r is read in bigrams: Han, kana and Hangul.
func cjk(r rune) bool {
	return r >= 0x1100 && unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}

// wordRune reports whether r belongs to a word as the simple tokenizer
// reads one: an ASCII letter or digit, or a letter, digit or mark of
// another script (the tokenizer keeps every non-ASCII character in a
// word, so other characters stand alone as tokens of their own).
func wordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return !cjk(r) && (unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r))
}

// searchBody is the indexed text of a document's fields: each normalised
// (see normaliseSearch), segmented (see segment) and ended by a line feed.
func searchBody(fields ...string) string {
	var b strings.Builder
	for _, f := range fields {
		if f = normaliseSearch(f); f != "" {
			segment(&b, f)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// normaliseSearch turns every run of white space (line feeds included)
// into one space, trimmed at both ends, and lowers the case of letters
// outside ASCII (FTS folds ASCII's itself).
func normaliseSearch(s string) string {
	s = strings.Join(strings.FieldsFunc(s, unicode.IsSpace), " ")
	return strings.Map(func(r rune) rune {
		if r >= utf8.RuneSelf {
			return unicode.ToLower(r)
		}
		return r
	}, s)
}

// segment writes s as the index reads it: each CJK run as its bigrams and
// its last character, each other character outside ASCII that is not part
// of a word alone, everything else as it is.
func segment(b *strings.Builder, s string) {
	rs := []rune(s)
	for i := 0; i < len(rs); {
		r := rs[i]
		switch {
		case cjk(r):
			j := i
			for j < len(rs) && cjk(rs[j]) {
				j++
			}
			b.WriteRune(tokenSep)
			for k := i; k+1 < j; k++ {
				b.WriteRune(rs[k])
				b.WriteRune(rs[k+1])
				b.WriteRune(tokenSep)
			}
			b.WriteRune(rs[j-1])
			b.WriteRune(tokenSep)
			i = j
		case r >= utf8.RuneSelf && !wordRune(r):
			b.WriteRune(tokenSep)
			b.WriteRune(r)
			b.WriteRune(tokenSep)
			i++
		default:
			b.WriteRune(r)
			i++
		}
	}
}

// MaxSearchTerms bounds the terms of a query (bigrams, characters, words):
// a longer query looks for its first MaxSearchTerms terms.
const MaxSearchTerms = 12

// queryTerms returns the terms of the normalised query q in order, as the
// index holds them: a CJK run followed by more of the query as its bigrams
// and its last character (the run ends there), the query's last run as
// its bigrams only (a substring of a longer run), or as the character's
// prefix when it is one character; words as words, the last one as a
// prefix (what is being typed). At most MaxSearchTerms.
func queryTerms(q string) []string {
	rs := []rune(q)
	var terms []string
	for i := 0; i < len(rs); {
		r := rs[i]
		j := i + 1
		switch {
		case cjk(r):
			for j < len(rs) && cjk(rs[j]) {
				j++
			}
			for k := i; k+1 < j; k++ {
				terms = append(terms, string(rs[k:k+2]))
			}
			if moreTerms(rs[j:]) {
				terms = append(terms, string(rs[j-1]))
			} else if j-i == 1 {
				terms = append(terms, string(r)+"*")
			}
		case wordRune(r):
			for j < len(rs) && wordRune(rs[j]) {
				j++
			}
			w := strings.ToLower(string(rs[i:j]))
			if !moreTerms(rs[j:]) {
				w += "*"
			}
			terms = append(terms, w)
		case r >= utf8.RuneSelf && !unicode.IsSpace(r):
			terms = append(terms, string(r))
		}
		i = j
	}
	if len(terms) > MaxSearchTerms {
		terms = terms[:MaxSearchTerms]
	}
	return terms
}

// moreTerms reports whether rs holds a term.
func moreTerms(rs []rune) bool {
	for _, r := range rs {
		if cjk(r) || wordRune(r) || r >= utf8.RuneSelf && !unicode.IsSpace(r) {
			return true
		}
	}
	return false
}

// matchPhrase is the FTS query for the terms, one phrase: the terms in
// order, next to each other. The terms hold no double quote (an ASCII
// character outside words, which queryTerms drops).
func matchPhrase(terms []string) string {
	return `"` + strings.Join(terms, " ") + `"`
}

// Marks snippet() puts around the terms it matched, read by readable.
const (
	snippetOpen  = "\x02"
	snippetClose = "\x03"
)

// SnippetPart is a piece of a snippet: text, and whether the query
// matched it.
type SnippetPart struct {
	Text  string `json:"text"`
	Match bool   `json:"match,omitempty"`
}

// readable turns a snippet of indexed text back into the text it was made
// from (see segment), in parts matched or not: a bigram stands for its
// first character when the next token continues its run, and a matched
// bigram marks its second character too.
func readable(s string) []SnippetPart {
	rs := []rune(s)
	var out []SnippetPart
	add := func(r rune, match bool) {
		if n := len(out); n > 0 && out[n-1].Match == match {
			out[n-1].Text += string(r)
			return
		}
		out = append(out, SnippetPart{Text: string(r), Match: match})
	}
	in, carry := false, false // inside marks; the last bigram was matched
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case r == '\x02':
			in = true
		case r == '\x03':
			in = false
		case r == tokenSep:
		case cjk(r) && i+1 < len(rs) && cjk(rs[i+1]):
			add(r, in || carry)
			carry = in
			// The bigram's second character is the next token's first,
			// unless the snippet ends here.
			k := i + 2
			for k < len(rs) && (rs[k] == '\x03' || rs[k] == tokenSep || rs[k] == '\x02') {
				k++
			}
			if k >= len(rs) || !cjk(rs[k]) {
				add(rs[i+1], in)
			}
			i++
		default:
			add(r, in || carry && cjk(r))
			carry = false
		}
	}
	return out
}
