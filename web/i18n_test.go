package web

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/i18n"
)

func TestLanguageChoice(t *testing.T) {
	t.Parallel()
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
	if ck := c.cookies[i18n.Cookie]; ck == nil || ck.Value != langEn {
		t.Fatalf("language not remembered: %+v", c.cookies[i18n.Cookie])
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

// TestWebCodesHaveWords checks the codes of the web's own errors against
// the catalogs: every string a Code field or an httpx.Error's code is set
// to, in the source of web and every package under it, must be a key of
// both. (The catalogs' own test
// checks the domain's codes and that both languages have the same keys.)
func TestWebCodesHaveWords(t *testing.T) {
	t.Parallel()
	var files []string
	for _, pattern := range []string{"*.go", "*/*.go"} {
		more, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, more...)
	}
	fset := token.NewFileSet()
	n := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") || strings.HasSuffix(name, "_templ.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(node ast.Node) bool {
			var code string
			switch node := node.(type) {
			case *ast.KeyValueExpr:
				if id, ok := node.Key.(*ast.Ident); ok && (id.Name == "Code" || id.Name == "code") {
					if bl, ok := node.Value.(*ast.BasicLit); ok && bl.Kind == token.STRING {
						code, _ = strconv.Unquote(bl.Value)
					}
				}
			case *ast.CallExpr: // domain.Invalid(field, code, args), f.FieldErr(field, code), httpx.NewError(code, …)
				var name string
				switch fun := node.Fun.(type) {
				case *ast.SelectorExpr:
					name = fun.Sel.Name
				case *ast.Ident:
					name = fun.Name
				}
				if arg, ok := map[string]int{"Invalid": 1, "FieldErr": 1, "NewError": 0}[name]; ok && len(node.Args) > arg {
					if bl, ok := node.Args[arg].(*ast.BasicLit); ok && bl.Kind == token.STRING {
						code, _ = strconv.Unquote(bl.Value)
					}
				}
			case *ast.ReturnStmt: // expected's codes
				if len(node.Results) == 1 {
					if bl, ok := node.Results[0].(*ast.BasicLit); ok && bl.Kind == token.STRING && strings.HasPrefix(bl.Value, `"field.`) {
						code, _ = strconv.Unquote(bl.Value)
					}
				}
			}
			if code != "" {
				n++
				if !i18n.Has(code) {
					t.Errorf("%s: code %q has no words", fset.Position(node.Pos()), code)
				}
			}
			return true
		})
	}
	if n < 30 {
		t.Errorf("found %d codes; has the way the web sets them changed?", n)
	}
}

// TestWebErrorMessages checks the web's own errors read as they should,
// through messageOf.
func TestWebErrorMessages(t *testing.T) {
	t.Parallel()
	tests := []struct {
		lang string
		err  error
		want string
	}{
		{langEn, httpx.ErrNotForm, "This address accepts only a form (application/x-www-form-urlencoded)."},
		{langZh, &httpx.RetryLater{Err: httpx.ErrTooMany, After: time.Minute}, "尝试次数过多，请稍后再试。"},
		{langEn, fmt.Errorf("%w: unknown token t1", httpx.ErrUnauthenticated), "Sign in to continue."},
		{langZh, domain.ErrOwnPasswordReset, "请在“我的账号”页面修改自己的密码。"},
		{langEn, httpx.ErrPanic, "Something went wrong on our side; it has been logged. Try again later."},
		{langEn, &httpx.BadField{Field: "to", Code: "field.whole_number"}, "New value must be a whole number."},
		{langZh, &httpx.BadField{Field: "limit", Code: "field.whole_number"}, "每页条数须为整数。"},
		{langEn, httpx.Malformed("JSON syntax error at byte %d", 3), "The request could not be read."},
	}
	for _, tc := range tests {
		if got := httpx.Message(tc.lang, tc.err); got != tc.want {
			t.Errorf("httpx.Message(%s, %v) = %q, want %q", tc.lang, tc.err, got, tc.want)
		}
	}
	if !errors.Is(domain.ErrOwnPasswordReset, domain.ErrForbidden) || !errors.Is(httpx.ErrNotJSON, httpx.ErrMediaType) {
		t.Error("a web error lost its kind")
	}
}

func TestStatusOf(t *testing.T) {
	t.Parallel()
	tests := []struct {
		err  error
		want int
	}{
		{nil, 200},
		{domain.Invalid("title", "field.required", nil), 422},
		{domain.ErrUncitedChange, 422},
		{domain.ErrSelfApproval, 403},
		{fmt.Errorf("wrapped: %w", domain.ErrRoleRequired), 403},
		{domain.ErrProposalMissing, 404},
		{domain.ErrNotDraft, 409},
		{fmt.Errorf("append: %w", events.ErrConflict), 409},
		{fmt.Errorf("append: %w", events.ErrUnavailable), 503},
		{&http.MaxBytesError{Limit: httpx.MaxBody}, 413},
		{httpx.Malformed("x"), 400},
		{&httpx.BadField{Field: "to", Code: "field.whole_number"}, 400},
		{httpx.ErrMediaType, 415},
		{httpx.ErrNotJSON, 415},
		{httpx.ErrNotForm, 415},
		{httpx.ErrMethod, 405},
		{httpx.ErrUnauthenticated, 401},
		{httpx.ErrCrossOrigin, 403},
		{&httpx.RetryLater{Err: httpx.ErrTooMany, After: time.Minute}, 429},
		{errors.New("boom"), 500},
	}
	for _, tc := range tests {
		if got := httpx.Status(tc.err); got != tc.want {
			t.Errorf("httpx.Status(%v) = %d, want %d", tc.err, got, tc.want)
		}
	}
}
