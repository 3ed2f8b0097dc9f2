package web

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/PuerkitoBio/goquery"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

func TestCatalogHasBothLanguages(t *testing.T) {
	for key, m := range catalog {
		if strings.TrimSpace(m.En) == "" || strings.TrimSpace(m.Zh) == "" {
			t.Errorf("%s: en %q zh %q", key, m.En, m.Zh)
		}
		if strings.Count(m.En, "%") != strings.Count(m.Zh, "%") {
			t.Errorf("%s: the two languages take different arguments: %q / %q", key, m.En, m.Zh)
		}
	}
}

func TestT(t *testing.T) {
	tests := []struct {
		lang, key string
		args      []any
		want      string
	}{
		{langEn, "nav.signin", nil, "Sign in"},
		{langZh, "nav.signin", nil, "登录"},
		{langZh, "nav.signed_in_as", []any{"bob"}, "当前用户：bob"},
		{"fr", "nav.signin", nil, "Sign in"},
		{langZh, "no.such.key", nil, "no.such.key"},
	}
	for _, tc := range tests {
		if got := T(tc.lang, tc.key, tc.args...); got != tc.want {
			t.Errorf("T(%s, %s) = %q, want %q", tc.lang, tc.key, got, tc.want)
		}
	}
}

func TestPlural(t *testing.T) {
	tests := []struct {
		lang string
		n    int
		want string
	}{
		{langEn, 0, "0 proposals"}, {langEn, 1, "1 proposal"}, {langEn, 2, "2 proposals"},
		{langZh, 1, "1 条提案"}, {langZh, 3, "3 条提案"},
	}
	for _, tc := range tests {
		if got := Plural(tc.lang, "count.proposals", tc.n); got != tc.want {
			t.Errorf("Plural(%s, %d) = %q, want %q", tc.lang, tc.n, got, tc.want)
		}
	}
}

func TestFormatDate(t *testing.T) {
	d := time.Date(2026, 11, 29, 15, 4, 0, 0, time.UTC)
	for _, tc := range []struct{ lang, got, want string }{
		{langZh, FormatDate(langZh, d), "2026年11月29日"},
		{langEn, FormatDate(langEn, d), "29 Nov 2026"},
		{langZh, FormatDay(langZh, "2026-01-05"), "2026年1月5日"},
		{langEn, FormatDay(langEn, "2026-01-05"), "5 Jan 2026"},
		{langEn, FormatDay(langEn, "soon"), "soon"},
		{langZh, FormatDateTime(langZh, d), "2026年11月29日 15:04 UTC"},
		{langEn, FormatDate(langEn, time.Time{}), ""},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: %q, want %q", tc.lang, tc.got, tc.want)
		}
	}
}

func TestNegotiateLang(t *testing.T) {
	for header, want := range map[string]string{
		"":                                  langEn,
		"zh-CN,zh;q=0.9,en;q=0.8":           langZh,
		"zh-Hant-TW":                        langZh,
		"en-US,en;q=0.9,zh-CN;q=0.8":        langEn,
		"fr-FR,fr;q=0.9,zh;q=0.5":           langZh,
		"fr-FR":                             langEn,
		"en;q=0.2,zh;q=0.8":                 langZh,
		"zh;q=0,en":                         langEn,
		"*":                                 langEn,
		strings.Repeat("xx;q=0.1,", 100000): langEn,
	} {
		if got := negotiateLang(header); got != want {
			t.Errorf("negotiateLang(%.40q) = %s, want %s", header, got, want)
		}
	}
}

func TestLanguageChoice(t *testing.T) {
	e := newEnv(t)
	c := e.client()
	lang := func(header http.Header) string {
		t.Helper()
		_, body := c.do(http.MethodGet, "/login", nil, header)
		doc, _ := goquery.NewDocumentFromReader(strings.NewReader(body))
		l, _ := doc.Find("html").Attr("lang")
		return l
	}
	zhHeader := http.Header{"Accept-Language": {"zh-CN,zh;q=0.9"}}
	if got := lang(zhHeader); got != "zh-Hans" {
		t.Errorf("Accept-Language zh: lang %q", got)
	}
	if got := lang(nil); got != "en" {
		t.Errorf("no preference: lang %q", got)
	}
	// The switch wins over the header and is remembered.
	_, body := c.do(http.MethodGet, "/login?lang=en", nil, zhHeader)
	if !strings.Contains(body, "Sign in to the editorial desk.") {
		t.Error("?lang=en did not switch to English")
	}
	if ck := c.cookies[langCookie]; ck == nil || ck.Value != langEn {
		t.Fatalf("language not remembered: %+v", c.cookies[langCookie])
	}
	if got := lang(zhHeader); got != "en" {
		t.Errorf("remembered choice: lang %q, want en", got)
	}
	// The switch links keep the page and set the language.
	_, body = c.do(http.MethodGet, "/login?next=%2Fdesk", nil, nil)
	doc, _ := goquery.NewDocumentFromReader(strings.NewReader(body))
	href, _ := doc.Find(`[data-testid="lang-switch"] a[hreflang="zh-Hans"]`).Attr("href")
	if href != "/login?lang=zh&next=%2Fdesk" {
		t.Errorf("switch link %q", href)
	}
}

func hasHan(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Han, r) {
			return true
		}
	}
	return false
}

func TestEveryErrorHasTwoLanguages(t *testing.T) {
	for _, et := range errorTexts {
		if et.msg.En == "" || !hasHan(et.msg.Zh) {
			t.Errorf("%v: en %q zh %q", et.err, et.msg.En, et.msg.Zh)
		}
	}
	// Wrapped with context, a sentinel keeps its message.
	wrapped := fmt.Errorf("%w: p-123", domain.ErrNotCrossValidated)
	if got := messageOf(langZh, wrapped); got != "提案尚未通过交叉验证。" {
		t.Errorf("wrapped: %q", got)
	}
	// An unexpected error never shows its text.
	if got := messageOf(langEn, errors.New("sql: database is locked at /var/lib/x")); strings.Contains(got, "sql") {
		t.Errorf("internal error leaked: %q", got)
	}
	if got := messageOf(langZh, fmt.Errorf("%w: only a draft or a proposal in review can be withdrawn", domain.ErrState)); got != "只有草稿或审核中的提案可以撤回。" {
		t.Errorf("inline state error: %q", got)
	}
}

func TestFieldMessages(t *testing.T) {
	tests := []struct {
		lang, field, msg, want string
	}{
		{langEn, "title", "is required", "Title is required."},
		{langZh, "title", "is required", "标题为必填项。"},
		{langZh, "name.zh", "is 250 characters long; the limit is 200", "名称（中文）有 250 个字符，上限为 200 个。"},
		{langEn, "name.en", "is required", "Name (English) is required."},
		{langZh, "to", "must be an integer from 0 to 10", "新值须为 0 到 10 之间的整数。"},
		{langZh, "to", `"weekly" is not a value of billing`, "新值中的“weekly”不是 billing 的可选值。"},
		{langZh, "mystery", "an unheard-of complaint", "mystery：an unheard-of complaint"},
		// A message that is a sentence of its own follows the label after a colon.
		{langEn, "source_url", "give a source URL or name the source", "Source URL: give a source URL or name the source."},
		{langZh, "source_url", "give a source URL or name the source", "来源网址：请填写来源网址或来源名称。"},
		{langEn, "comment", "a reject needs a reason", "Comment: a reject needs a reason."},
		{langZh, "comment", "a reject needs a reason", "意见：否决需要写明理由。"},
		{langEn, "target", `the proposal has no change "score:x"`, `Change: the proposal has no change "score:x".`},
		{langZh, "target", `the proposal has no change "score:x"`, "修改项：提案中没有修改项“score:x”。"},
		{langEn, "weights", "weights sum to 90; they must sum to 100", "Weights: weights sum to 90; they must sum to 100."},
		{langZh, "criteria", `weight of "speed" must be 0–100`, "评分项：“speed”的权重须在 0–100 之间。"},
	}
	for _, tc := range tests {
		if got := fieldMessage(tc.lang, tc.field, tc.msg); got != tc.want {
			t.Errorf("fieldMessage(%s, %s, %q) = %q, want %q", tc.lang, tc.field, tc.msg, got, tc.want)
		}
	}
}

// TestFieldSentencesKnown keeps fieldSentences in step with the patterns:
// a key that names no pattern would leave its message garbled.
func TestFieldSentencesKnown(t *testing.T) {
	known := map[string]bool{}
	for _, p := range fieldPatterns {
		known[p.re.String()] = true
	}
	for k := range fieldSentences {
		if !known[k] {
			t.Errorf("fieldSentences names %s, which is no field pattern", k)
		}
	}
}

func TestStatusOf(t *testing.T) {
	tests := []struct {
		err  error
		want int
	}{
		{nil, 200},
		{&domain.FieldError{Field: "title", Msg: "is required"}, 422},
		{domain.ErrUncitedChange, 422},
		{domain.ErrSelfApproval, 403},
		{fmt.Errorf("wrapped: %w", domain.ErrRoleRequired), 403},
		{domain.ErrProposalMissing, 404},
		{domain.ErrNotDraft, 409},
		{fmt.Errorf("append: %w", events.ErrConflict), 409},
		{fmt.Errorf("append: %w", events.ErrUnavailable), 503},
		{&http.MaxBytesError{Limit: MaxBody}, 413},
		{malformed("x"), 400},
		{&badField{Field: "to", Msg: "must be a whole number"}, 400},
		{errMediaType, 415},
		{errNotJSON, 415},
		{errNotForm, 415},
		{errMethod, 405},
		{errUnauthenticated, 401},
		{errCrossOrigin, 403},
		{&retryLater{err: errTooMany, after: time.Minute}, 429},
		{errors.New("boom"), 500},
	}
	for _, tc := range tests {
		if got := statusOf(tc.err); got != tc.want {
			t.Errorf("statusOf(%v) = %d, want %d", tc.err, got, tc.want)
		}
	}
}
