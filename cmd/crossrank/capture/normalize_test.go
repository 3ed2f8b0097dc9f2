package capture

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// normalizeWhole is normalize as the definition reads: NFKC and folding
// of the whole text, then the whitespace rules, a rune at a time.
func normalizeWhole(s string) string {
	s = fold.String(norm.NFKC.String(s))
	var out []rune
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) {
			space = true
			continue
		}
		if space && len(out) > 0 && !cjk(out[len(out)-1]) && !cjk(r) {
			out = append(out, ' ')
		}
		space = false
		out = append(out, r)
	}
	return string(out)
}

// TestInertCharacters checks, for every character normalize copies
// through, what it takes for granted: NFKC leaves it alone and starts a
// segment before it, folding changes only ASCII upper case, and the
// whitespace and CJK rules read it as the fast path does.
func TestInertCharacters(t *testing.T) {
	t.Parallel()
	for r := rune(0); r <= 0x10ffff; r++ {
		if !inert(r) {
			continue
		}
		s := string(r)
		p := norm.NFKC.PropertiesString(s)
		if !p.BoundaryBefore() || norm.NFKC.String(s) != s {
			t.Fatalf("%U: NFKC changes it or joins it to what precedes", r)
		}
		if got := fold.String(s); got != string(foldInert(r)) {
			t.Fatalf("%U: folds to %q, foldInert says %q", r, got, string(foldInert(r)))
		}
		if r >= 0x80 && (!cjk(r) || unicode.IsSpace(r)) {
			t.Fatalf("%U: the fast path takes it for a CJK character", r)
		}
		if r < 0x80 && (asciiSpace[r] != unicode.IsSpace(r) || cjk(r)) {
			t.Fatalf("%U: the fast path reads its spacing wrongly", r)
		}
	}
}

// TestNormalizeSegments holds normalize, which normalises the text a run
// at a time, to the whole text's normalisation, on random text that mixes
// the fast path's characters with combining marks, compatibility forms,
// case-folding oddities, kana with voicing marks, Hangul jamo, odd spaces
// and invalid bytes.
func TestNormalizeSegments(t *testing.T) {
	t.Parallel()
	pieces := []string{
		"a", "E", "z", "K", "I", "s", " ", "\t", "\n", "1", "<", "价", "格", "为", "准", "鿿", "一",
		"\u0301", "\u0327", "\u0308", "\u0323", "\u0345", "\u3099", "\u309a", "\u1161", "\u11a8", "\u1100",
		"ｶ", "ﾞ", "か", "カ", "Ａ", "４", "　", "\u00a0", "\u2003", "\u0085", "ﬁ", "ß", "ẞ", "Σ", "ς", "İ", "ı",
		"ǅ", "Å", "K", "ﾟ", "㍿", "①", "\u0f73", "\u0b57", "\u0dcf", "\xff", "\xe4\xb8", "豈", "\U0002f800",
		"\u1e9b\u0323", "e\u0301", "가", strings.Repeat("\u0301", 35), "\u3000", "：", "！", "🙂", "、", "。", "，", "；", "\uff9f\u3099", "\u3031",
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		s := b.String()
		if got, want := normalize(s), normalizeWhole(s); got != want {
			t.Fatalf("normalize(%q) = %q; whole text: %q", s, got, want)
		}
	}
}
