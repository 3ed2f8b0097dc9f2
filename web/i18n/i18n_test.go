package i18n

import (
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

var named = regexp.MustCompile(`\{[A-Za-z_]+\}`)

// placeholders lists the arguments a message takes, sorted: its named
// arguments ({Field} is {field} capitalised) and how many fmt verbs it has
// (a language may reorder them with %[2]s).
func placeholders(m string) []string {
	out := named.FindAllString(strings.ReplaceAll(m, "{Field}", "{field}"), -1)
	slices.Sort(out)
	return append(out, fmt.Sprint(strings.Count(m, "%")))
}

func TestCatalogsHaveTheSameKeys(t *testing.T) {
	for lang, c := range catalogs {
		for key, m := range c {
			if strings.TrimSpace(m) == "" {
				t.Errorf("%s: %s is empty", lang, key)
			}
			for other, oc := range catalogs {
				om, ok := oc[key]
				if !ok {
					t.Errorf("%s has %s, %s lacks it", lang, key, other)
					continue
				}
				if got, want := placeholders(m), placeholders(om); !slices.Equal(got, want) {
					t.Errorf("%s: %s takes %v, %s takes %v", key, lang, got, other, want)
				}
			}
		}
	}
}

// TestEveryCodeHasWords checks every code an error can carry into words: the
// domain's (domain.Codes lists them, and a domain test keeps that list
// complete), the store's and this package's own. The web's own codes are
// checked by a test in package web, which can read its source.
func TestEveryCodeHasWords(t *testing.T) {
	codes := append(domain.Codes(), "internal", "request.too_large")
	for _, s := range storeCodes {
		codes = append(codes, s.code)
	}
	for _, code := range codes {
		for lang, c := range catalogs {
			if _, ok := c[code]; !ok {
				t.Errorf("%s: no words for error code %s", lang, code)
			}
		}
		if !strings.ContainsFunc(zh[code], func(r rune) bool { return unicode.Is(unicode.Han, r) }) {
			t.Errorf("zh: %s is not in Chinese: %q", code, zh[code])
		}
	}
}

func TestError(t *testing.T) {
	tests := []struct {
		lang string
		err  error
		want string
	}{
		// Wrapped with context, a sentinel keeps its words.
		{Zh, fmt.Errorf("%w: p-123", domain.ErrNotCrossValidated), "提案尚未通过交叉验证。"},
		{En, fmt.Errorf("wrapped: %w", domain.ErrRoleRequired), "Your account does not hold the role this action needs."},
		{Zh, domain.ErrNotWithdrawable, "只有草稿或审核中的提案可以撤回。"},
		{En, domain.ErrAlreadyDraft, "The proposal is already a draft."},
		// A kind without a specific error.
		{En, fmt.Errorf("%w: something", domain.ErrState), "This is not possible in the current state."},
		{Zh, fmt.Errorf("append: %w", events.ErrConflict), "有人同时修改了此内容，请刷新页面后重试。"},
		{En, &http.MaxBytesError{Limit: 1 << 20}, "The request is larger than the limit of 1 MiB."},
		// An unexpected error never shows its text.
		{En, errors.New("sql: database is locked at /var/lib/x"), "Something went wrong on our side; it has been logged. Try again later."},
		{En, fmt.Errorf("%w", domain.Invalid("title", "field.required", nil)), "Title is required."},
	}
	for _, tc := range tests {
		if got := Error(tc.lang, tc.err); got != tc.want {
			t.Errorf("Error(%s, %v) = %q, want %q", tc.lang, tc.err, got, tc.want)
		}
	}
}

func TestField(t *testing.T) {
	tests := []struct {
		lang, field, code string
		args              domain.Args
		want              string
	}{
		{En, "title", "field.required", nil, "Title is required."},
		{Zh, "title", "field.required", nil, "标题为必填项。"},
		{Zh, "name.zh", "field.too_long", domain.Args{"length": 250, "limit": 200}, "名称（中文）有 250 个字符，上限为 200 个。"},
		{En, "name.en", "field.required", nil, "Name (English) is required."},
		{Zh, "to", "field.score", domain.Args{"min": 0, "max": 10}, "新值须为 0 到 10 之间的整数。"},
		{Zh, "to", "ranking.not_option", domain.Args{"value": "weekly", "attribute": "billing"}, "新值中的“weekly”不是 billing 的可选值。"},
		// A field without a name is spelled as it is; a code without words shows the code.
		{Zh, "mystery", "field.required", nil, "mystery为必填项。"},
		{En, "title", "no.such.code", nil, "title: no.such.code"},
		// A message that is a sentence of its own follows the name after a colon.
		{En, "source_url", "evidence.source_required", nil, "Source URL: give a source URL or name the source."},
		{Zh, "source_url", "evidence.source_required", nil, "来源网址：请填写来源网址或来源名称。"},
		{En, "comment", "vote.reason_required", nil, "Comment: a reject needs a reason."},
		{Zh, "comment", "vote.reason_required", nil, "意见：否决需要写明理由。"},
		{En, "target", "change.missing", domain.Args{"change": "score:x"}, `Change: the proposal has no change "score:x".`},
		{Zh, "target", "change.missing", domain.Args{"change": "score:x"}, "修改项：提案中没有修改项“score:x”。"},
		{En, "weights", "ranking.weight_sum", domain.Args{"sum": 90}, "Weights: weights sum to 90; they must sum to 100."},
		{Zh, "criteria", "ranking.weight_range", domain.Args{"criterion": "speed"}, "评分项：“speed”的权重须在 0–100 之间。"},
		// User input shows escaped, so it cannot reorder the words around it.
		{En, "tags", "field.repeats", domain.Args{"value": "a\u202eb"}, `Tags repeats "a\u202eb".`},
	}
	for _, tc := range tests {
		fe := &domain.FieldError{Field: tc.field, Code: tc.code, Args: tc.args}
		if got := Field(tc.lang, fe); got != tc.want {
			t.Errorf("Field(%s, %s %s) = %q, want %q", tc.lang, tc.field, tc.code, got, tc.want)
		}
	}
}

func TestT(t *testing.T) {
	tests := []struct {
		lang, key string
		args      []any
		want      string
	}{
		{En, "nav.signin", nil, "Sign in"},
		{Zh, "nav.signin", nil, "登录"},
		{Zh, "nav.signed_in_as", []any{"bob"}, "当前用户：bob"},
		{"fr", "nav.signin", nil, "Sign in"},
		{Zh, "no.such.key", nil, "no.such.key"},
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
		{En, 0, "0 proposals"}, {En, 1, "1 proposal"}, {En, 2, "2 proposals"},
		{Zh, 1, "1 条提案"}, {Zh, 3, "3 条提案"},
	}
	for _, tc := range tests {
		if got := Plural(tc.lang, "count.proposals", tc.n); got != tc.want {
			t.Errorf("Plural(%s, %d) = %q, want %q", tc.lang, tc.n, got, tc.want)
		}
	}
}

func TestDates(t *testing.T) {
	d := time.Date(2026, 11, 29, 15, 4, 0, 0, time.UTC)
	for _, tc := range []struct{ lang, got, want string }{
		{Zh, Date(Zh, d), "2026年11月29日"},
		{En, Date(En, d), "29 Nov 2026"},
		{Zh, Day(Zh, "2026-01-05"), "2026年1月5日"},
		{En, Day(En, "2026-01-05"), "5 Jan 2026"},
		{En, Day(En, "soon"), "soon"},
		{Zh, DateTime(Zh, d), "2026年11月29日 15:04 UTC"},
		{En, DateTime(En, d), "29 Nov 2026, 15:04 UTC"},
		{En, Date(En, time.Time{}), ""},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: %q, want %q", tc.lang, tc.got, tc.want)
		}
	}
}

func TestNegotiate(t *testing.T) {
	for header, want := range map[string]string{
		"":                                  En,
		"zh-CN,zh;q=0.9,en;q=0.8":           Zh,
		"zh-Hant-TW":                        Zh,
		"en-US,en;q=0.9,zh-CN;q=0.8":        En,
		"fr-FR,fr;q=0.9,zh;q=0.5":           Zh,
		"fr-FR":                             En,
		"en;q=0.2,zh;q=0.8":                 Zh,
		"zh;q=0,en":                         En,
		"*":                                 En,
		strings.Repeat("xx;q=0.1,", 100000): En,
	} {
		if got := Negotiate(header); got != want {
			t.Errorf("Negotiate(%.40q) = %s, want %s", header, got, want)
		}
	}
}

// TestCatalogPartsDisjoint: a key in two parts of a language's catalog
// would let one silently win when join merges them.
func TestCatalogPartsDisjoint(t *testing.T) {
	for lang, parts := range map[string][]map[string]string{
		En: enParts,
		Zh: zhParts,
	} {
		n := 0
		for _, p := range parts {
			n += len(p)
		}
		if got := len(catalogs[lang]); got != n {
			t.Errorf("%s: the parts hold %d keys, the catalog %d: a key is in two parts", lang, n, got)
		}
	}
}

// TestChineseOneRegister: the Chinese interface speaks to its reader in one
// register, 你, throughout (issue 43 item 3): a sign-in or report message
// in 您 beside desk pages in 你 read as two voices.
func TestChineseOneRegister(t *testing.T) {
	for key, text := range catalog(Zh) {
		if strings.Contains(text, "您") {
			t.Errorf("%s uses 您: %q", key, text)
		}
	}
}
