package capture_test

import (
	"testing"

	"github.com/crossrank/crossrank/cmd/crossrank/capture"
	"golang.org/x/text/encoding/simplifiedchinese"
)

// TestFindPassage: the excerpt is located wherever QuoteFound finds it,
// and the marked stretch of the reader's text is the quote as the page
// wrote it (its own width, case, spacing and line breaks).
func TestFindPassage(t *testing.T) {
	t.Parallel()
	// The ideographic space is whitespace: the text shows it as a space.
	for _, tc := range []struct {
		name, contentType, body, excerpt string
		text, marked                     string // want; marked "" when not found
		checked                          bool
	}{
		{"plain HTML", "text/html; charset=utf-8", "<p>Prices: <b>RTX 4090</b> on demand.</p><script>var x='RTX 4090 on demand'</script>",
			"RTX 4090 on demand", "Prices: RTX 4090 on demand.", "RTX 4090 on demand", true},
		{"blocks become lines", "text/html", "<div>Stock\n\n   varies</div><p>by   region</p>", "varies by region",
			"Stock\nvaries\nby region", "varies\nby region", true},
		{"full width and case", "text/plain", "规格：ＲＴＸ　４０９０ 按需", "rtx 4090",
			"规格：ＲＴＸ ４０９０ 按需", "ＲＴＸ ４０９０", true},
		{"CJK broken across tags", "text/html", "<p>具体型号以</p>\n<p>实时库存为准。</p>", "具体型号以实时库存为准",
			"具体型号以\n实时库存为准。", "具体型号以\n实时库存为准", true},
		{"entities decoded", "text/html", "<p>A &amp; B &lt;fast&gt;</p>", "a & b <fast>", "A & B <fast>", "A & B <fast>", true},
		{"first of two", "text/plain", "x cheap y cheap", "cheap", "x cheap y cheap", "cheap", true},
		{"not there", "text/html", "<p>Something else</p>", "RTX 4090", "Something else", "", true},
		{"PDF is not read", "application/pdf", "%PDF-1.7 RTX 4090", "RTX 4090", "", "", false},
		{"empty excerpt", "text/plain", "words", "  ", "", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := capture.FindPassage([]byte(tc.body), tc.contentType, tc.excerpt)
			if p.Text != tc.text || p.Checked != tc.checked {
				t.Errorf("text %q checked %v, want %q %v", p.Text, p.Checked, tc.text, tc.checked)
			}
			marked := ""
			if p.Found() {
				marked = p.Text[p.Start:p.End]
			}
			if marked != tc.marked {
				t.Errorf("marked %q, want %q", marked, tc.marked)
			}
			found, checked := capture.QuoteFound([]byte(tc.body), tc.contentType, tc.excerpt)
			if found != p.Found() || checked != p.Checked {
				t.Errorf("QuoteFound says found %v checked %v; FindPassage %v %v", found, checked, p.Found(), p.Checked)
			}
		})
	}
	gbk, err := simplifiedchinese.GBK.NewEncoder().Bytes([]byte("<p>价格以实时库存为准</p>"))
	if err != nil {
		t.Fatal(err)
	}
	if p := capture.FindPassage(gbk, "text/html; charset=gbk", "实时库存"); !p.Found() || p.Text[p.Start:p.End] != "实时库存" {
		t.Errorf("GBK page: %+v", p)
	}
}

// FuzzFindPassage: whatever the page and the excerpt, the passage is
// found exactly when QuoteFound finds the quote (or the text splits a
// combining sequence, which the fuzzer may find: then only one way), and
// the offsets lie within the text, on rune boundaries.
func FuzzFindPassage(f *testing.F) {
	f.Add("<p>Prices: <b>RTX 4090</b></p>", "rtx 4090")
	f.Add("规格：ＲＴＸ　４０９０", "RTX 4090")
	f.Add("e\u0301 café", "é")
	f.Fuzz(func(t *testing.T, body, excerpt string) {
		p := capture.FindPassage([]byte(body), "text/html; charset=utf-8", excerpt)
		if !p.Found() {
			return
		}
		if p.Start < 0 || p.End > len(p.Text) || p.Start >= p.End {
			t.Fatalf("offsets %d..%d in %d bytes", p.Start, p.End, len(p.Text))
		}
		if found, _ := capture.QuoteFound([]byte(p.Text[p.Start:p.End]), "text/plain; charset=utf-8", excerpt); !found {
			t.Errorf("marked %q does not read as %q", p.Text[p.Start:p.End], excerpt)
		}
	})
}
