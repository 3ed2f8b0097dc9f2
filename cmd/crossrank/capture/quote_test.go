package capture_test

import (
	"net/http"
	"testing"

	"github.com/crossrank/crossrank/cmd/crossrank/capture"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/simplifiedchinese"
)

func encode(t *testing.T, e encoding.Encoding, s string) []byte {
	t.Helper()
	b, err := e.NewEncoder().Bytes([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestFetchCharsets serves pages in the charsets Chinese and older
// European sites still use, declared in the header or only in a meta tag,
// and checks Text decodes them to the UTF-8 they meant.
func TestFetchCharsets(t *testing.T) {
	t.Parallel()
	const zh = "价格以实时库存为准，详见官网。"
	const fr = "Prix indicatif, à vérifier : « déjà » vu."
	for _, tc := range []struct {
		name, contentType string
		body              []byte
		want              string
	}{
		{"GBK in the header", "text/html; charset=GBK", encode(t, simplifiedchinese.GBK, "<p>"+zh+"</p>"), "<p>" + zh + "</p>"},
		{"GB2312 label, GBK bytes", "text/plain; charset=gb2312", encode(t, simplifiedchinese.GBK, zh), zh},
		{"GBK in a meta tag", "text/html",
			encode(t, simplifiedchinese.GBK, `<html><head><meta charset="gbk"></head><body>`+zh+`</body></html>`),
			`<html><head><meta charset="gbk"></head><body>` + zh + `</body></html>`},
		{"GB18030 in http-equiv", "text/html",
			encode(t, simplifiedchinese.GB18030, `<meta http-equiv="Content-Type" content="text/html; charset=gb18030">`+zh),
			`<meta http-equiv="Content-Type" content="text/html; charset=gb18030">` + zh},
		{"ISO-8859-1 in the header", "text/plain; charset=ISO-8859-1", encode(t, charmap.ISO8859_1, fr), fr},
		{"UTF-8 undeclared", "text/html", []byte(zh), zh},
	} {
		s := serve(t, func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", tc.contentType)
			w.Write(tc.body)
		})
		r, err := fetch(t, &capture.Fetcher{Allow: loopback}, s.URL)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if string(r.Body) != string(tc.body) {
			t.Errorf("%s: Body is not the bytes as sent", tc.name)
		}
		got, err := r.Text()
		if err != nil || got != tc.want {
			t.Errorf("%s: Text = %q, %v; want %q", tc.name, got, err, tc.want)
		}
	}
}

func TestQuoteFound(t *testing.T) {
	t.Parallel()
	const excerpt = "应以实时库存为准"
	html := "text/html; charset=utf-8"
	for _, tc := range []struct {
		name, body, contentType, excerpt string
		found, checked                   bool
	}{
		{"plain HTML", "<p>价格应以实时库存为准。</p>", html, excerpt, true, true},
		{"split by inline tags", "<p>价格应以<b>实时</b><a href='#'>库存</a>为准</p>", html, excerpt, true, true},
		{"split by a line break in the source", "<p>价格应以实时\n  库存为准</p>", html, excerpt, true, true},
		{"split by <br>", "<p>应以实时<br>库存为准</p>", html, excerpt, true, true},
		{"ideographic spaces between characters", "<p>应\u3000以\u3000实\u3000时\u3000库\u3000存\u3000为\u3000准</p>", html, excerpt, true, true},
		{"entities", "<p>&#x5E94;&#20197;实时库存为准</p>", html, excerpt, true, true},
		{"full-width punctuation in the excerpt", "<p>价格:应以实时库存为准!</p>", html, "价格：应以实时库存为准！", true, true},
		{"full-width letters and digits", "<p>RTX 4090 24GB 显存</p>", html, "ＲＴＸ　４０９０ ２４ＧＢ", true, true},
		{"full-width page, ASCII excerpt", "<p>ＲＴＸ　４０９０</p>", html, "rtx 4090", true, true},
		{"half-width katakana", "<p>ｶﾀｶﾅ</p>", html, "カタカナ", true, true},
		{"case and whitespace", "<p>The  Price\n is\tFinal</p>", html, "the price is final", true, true},
		{"paragraphs do not run together", "<p>price</p><p>final</p>", html, "pricefinal", false, true},
		{"inline tags do run together", "<p>pri<b>ce</b></p>", html, "price", true, true},
		{"in a script only", "<script>var s='应以实时库存为准'</script><p>别的</p>", html, excerpt, false, true},
		{"in a style only", "<style>/*应以实时库存为准*/</style>", html, excerpt, false, true},
		{"in a comment only", "<!-- 应以实时库存为准 -->", html, excerpt, false, true},
		{"in an attribute only", `<img alt="应以实时库存为准">`, html, excerpt, false, true},
		{"changed wording", "<p>应以实际库存为准</p>", html, excerpt, false, true},
		{"GBK page", string(encode(t, simplifiedchinese.GBK, "<p>应以实时库存为准</p>")), "text/html; charset=gbk", excerpt, true, true},
		{"plain text", "说明：应以 实时库存 为准。", "text/plain", excerpt, true, true},
		{"JSON with escapes", `{"note":"\u5e94\u4ee5\u5b9e\u65f6\u5e93\u5b58\u4e3a\u51c6","n":1}`, "application/json", excerpt, true, true},
		{"JSON in a key only", `{"应以实时库存为准":1}`, "application/json", excerpt, false, true},
		{"not JSON after all", `note: 应以实时库存为准`, "application/json", excerpt, true, true},
		{"PDF", "%PDF-1.7 应以实时库存为准", "application/pdf", excerpt, false, false},
		{"image", "应以实时库存为准", "image/png", excerpt, false, false},
		{"empty excerpt", "<p>x</p>", html, " \u3000 ", false, false},
		{"unknown charset label: sniffed, as browsers do", "应以实时库存为准", "text/plain; charset=x-nonesuch", excerpt, true, true},
	} {
		found, checked := capture.QuoteFound([]byte(tc.body), tc.contentType, tc.excerpt)
		if found != tc.found || checked != tc.checked {
			t.Errorf("%s: QuoteFound = %v, %v; want %v, %v", tc.name, found, checked, tc.found, tc.checked)
		}
	}
}
