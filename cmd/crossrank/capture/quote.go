package capture

import (
	"bytes"
	"encoding/json"
	"io"
	"maps"
	"mime"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/charset"
)

// QuoteFound reports whether excerpt appears in the captured body, and
// whether the body could be checked at all.
//
// Both sides are compared as a reader sees them, not as bytes: HTML is
// reduced to its visible text (no tags, scripts or styles; entities
// decoded), JSON to its string values, and both texts are decoded to
// UTF-8 from the declared charset, NFKC-normalised (full-width letters,
// digits, punctuation and the ideographic space become their ordinary
// forms), case-folded, and their whitespace runs collapsed to one space;
// whitespace next to a CJK character is dropped, since Chinese puts none
// between words and a page may break a line, or put a tag, anywhere.
//
// checked is false for PDF (there is no pure-Go PDF text extractor kept
// well enough to trust with evidence; the capture still stores the
// bytes), for other media types, for a body whose charset cannot be
// decoded, and for an empty excerpt.
func QuoteFound(body []byte, contentType, excerpt string) (found, checked bool) {
	want := normalize(excerpt)
	if want == "" {
		return false, false
	}
	text, ok := readText(body, contentType)
	if !ok {
		return false, false
	}
	return strings.Contains(text, want), true
}

// SameText reports whether two bodies read the same to a reader, compared
// as QuoteFound compares (visible text, normalised): a page whose markup,
// scripts or styles alone changed reads the same. Bodies whose text
// cannot be read (PDF…) are the same only when their bytes are.
func SameText(a []byte, aType string, b []byte, bType string) bool {
	ta, oka := readText(a, aType)
	tb, okb := readText(b, bType)
	if !oka || !okb {
		return bytes.Equal(a, b)
	}
	return ta == tb
}

// readText returns the body's text as QuoteFound searches it; ok is false
// when its media type has no text to read or its charset cannot be
// decoded.
func readText(body []byte, contentType string) (text string, ok bool) {
	text, ok = readerText(body, contentType)
	return normalize(text), ok
}

// readerText returns the body's text as a reader sees it, before
// normalising: the visible text of HTML (a line break for each block
// tag), the string values of JSON, plain text as it is. ok is false as
// for readText.
func readerText(body []byte, contentType string) (text string, ok bool) {
	mt, _, _ := mime.ParseMediaType(contentType)
	text, err := utf8Text(body, contentType)
	if err != nil {
		return "", false
	}
	switch mt {
	case "text/html":
		return visibleText(text), true
	case "application/json":
		return jsonStrings(text), true
	case "text/plain":
		return text, true
	}
	return "", false
}

// utf8Text decodes body to UTF-8 from the charset its Content-Type header
// declares, or else its byte-order mark, or else an HTML meta tag; with
// none of those it is taken as UTF-8 when it is valid UTF-8 and as
// windows-1252 otherwise, as browsers do.
func utf8Text(body []byte, contentType string) (string, error) {
	// What charset.NewReader does, without a pass of the UTF-8 decoder
	// over a body that is valid UTF-8 already (the decoder would change
	// nothing but invalid bytes).
	if len(body) > 0 {
		_, name, _ := charset.DetermineEncoding(body, contentType)
		if name == "utf-8" && utf8.Valid(body) {
			return string(body), nil
		}
	}
	r, err := charset.NewReader(bytes.NewReader(body), contentType)
	if err != nil {
		return "", err
	}
	b, err := io.ReadAll(r)
	return string(b), err
}

// hidden are the elements whose text a reader never sees.
var hidden = map[string]bool{"script": true, "style": true, "noscript": true, "template": true}

// inline are the elements that do not break a line: text on either side
// runs on ("foo<b>bar</b>" reads "foobar"). Every other tag is a break,
// written as a newline (the comparison treats it as any whitespace; the
// reviewers' view of a copy keeps it).
var inline = map[string]bool{
	"a": true, "abbr": true, "b": true, "bdi": true, "bdo": true, "cite": true,
	"code": true, "data": true, "dfn": true, "em": true, "font": true, "i": true,
	"kbd": true, "mark": true, "q": true, "rp": true, "rt": true, "ruby": true,
	"s": true, "samp": true, "small": true, "span": true, "strong": true,
	"sub": true, "sup": true, "time": true, "u": true, "var": true, "wbr": true,
}

// visibleText returns the text of an HTML document a reader would see.
func visibleText(doc string) string {
	var b strings.Builder
	b.Grow(len(doc)) // the text is shorter than the page: one allocation
	z := html.NewTokenizer(strings.NewReader(doc))
	skip := "" // the hidden element we are inside, if any
	for {
		switch z.Next() {
		case html.ErrorToken:
			return b.String()
		case html.TextToken:
			if skip == "" {
				b.Write(z.Text())
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			// string(name) in a lookup or a comparison allocates nothing.
			name, _ := z.TagName()
			if skip == "" && hidden[string(name)] {
				skip = string(name)
			}
			if !inline[string(name)] {
				b.WriteByte('\n')
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			if skip != "" && string(name) == skip {
				skip = ""
			}
			if !inline[string(name)] {
				b.WriteByte('\n')
			}
		}
	}
}

// jsonStrings returns the string values of a JSON document (escapes like
// \u5e94 decoded), one per line in document order with object members
// sorted by key; text that is not JSON is returned as it is.
func jsonStrings(doc string) string {
	var v any
	if err := json.Unmarshal([]byte(doc), &v); err != nil {
		return doc
	}
	var b strings.Builder
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			b.WriteString(v)
			b.WriteByte('\n')
		case []any:
			for _, e := range v {
				walk(e)
			}
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(v)) {
				walk(v[k])
			}
		}
	}
	walk(v)
	return b.String()
}

// cjk reports whether r is written without spaces around it: Han,
// kana, Hangul, and CJK punctuation.
func cjk(r rune) bool {
	return (r >= 0x3000 && r <= 0x303f) || (r >= 0xff00 && r <= 0xffef) ||
		unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}
