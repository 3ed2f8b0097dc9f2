package domain_test

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/crossrank/crossrank/domain"
)

// TestCodesListed keeps domain.Codes in step with the source (domain and
// domain/handler, domain/rankfile): every code a call to invalid, Invalid, domain.Invalid, kindErr or stateErr (or an Error literal) names has
// English words, and no word is left over for a code nothing raises. The
// web's catalog test checks Codes against both languages.
func TestCodesListed(t *testing.T) {
	// The handler raises a few of the domain's codes itself, where what
	// it checks needs what it loads (domain.Invalid).
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	more, err := filepath.Glob("handler/*.go")
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, more...)
	// The ranking file's reader raises the strict JSON checker's depth
	// limit on a file (field.too_deep).
	more, err = filepath.Glob("rankfile/*.go")
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, more...)
	used := map[string]bool{}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			var lit ast.Expr
			switch n := n.(type) {
			case *ast.CallExpr:
				if id, ok := n.Fun.(*ast.Ident); ok && len(n.Args) >= 2 &&
					(id.Name == "invalid" || id.Name == "Invalid" || id.Name == "kindErr" || id.Name == "stateErr") {
					lit = n.Args[1]
				}
				if sel, ok := n.Fun.(*ast.SelectorExpr); ok && len(n.Args) >= 2 && sel.Sel.Name == "Invalid" {
					if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "domain" {
						lit = n.Args[1]
					}
				}
			case *ast.KeyValueExpr:
				if id, ok := n.Key.(*ast.Ident); ok && id.Name == "code" {
					lit = n.Value
				}
			}
			if id, ok := lit.(*ast.Ident); lit == nil || ok && id.Name == "code" {
				return true // not a code, or the constructors passing theirs on
			}
			bl, ok := lit.(*ast.BasicLit)
			if !ok || bl.Kind != token.STRING {
				t.Errorf("%s: a code that is not a string literal: the test cannot list it", fset.Position(lit.Pos()))
				return true
			}
			code, _ := strconv.Unquote(bl.Value)
			used[code] = true
			return true
		})
	}
	codes := domain.Codes()
	for code := range used {
		if !slices.Contains(codes, code) {
			t.Errorf("code %q is raised but has no words", code)
		}
	}
	for _, code := range codes {
		if !used[code] {
			t.Errorf("code %q has words but nothing raises it", code)
		}
	}
}

func TestErrorCodesAndText(t *testing.T) {
	tests := []struct {
		err        error
		code, text string
		kind       error
	}{
		{domain.ErrSelfApproval, "proposal.self_approval",
			"not allowed for this user: the author or a reviser cannot vote on this proposal", domain.ErrForbidden},
		{domain.ErrNotWithdrawable, "proposal.not_withdrawable",
			"not possible in the current state: only a draft or a proposal in review can be withdrawn", domain.ErrState},
		{fmt.Errorf("%w: p-1", domain.ErrStaleBaseline), "proposal.stale_baseline",
			"not possible in the current state: a value this proposal changes was published since; revise it: p-1", domain.ErrState},
		{domain.ErrInvalid, "invalid", "invalid input", domain.ErrInvalid},
	}
	for _, tc := range tests {
		var e *domain.Error
		if !errors.As(tc.err, &e) || e.Code() != tc.code {
			t.Errorf("%v: code %v, want %s", tc.err, e, tc.code)
		}
		if got := tc.err.Error(); got != tc.text {
			t.Errorf("Error() = %q, want %q", got, tc.text)
		}
		if !errors.Is(tc.err, tc.kind) {
			t.Errorf("%v is not %v", tc.err, tc.kind)
		}
	}
}

func TestFieldErrorMessage(t *testing.T) {
	tests := []struct {
		fe   *domain.FieldError
		want string
	}{
		{domain.Invalid("name.zh", "field.too_long", domain.Args{"length": 250, "limit": 200}),
			"name.zh: is 250 characters long; the limit is 200"},
		// User input is escaped as in a Go string, so it cannot hide or reorder words.
		{domain.Invalid("tags", "field.repeats", domain.Args{"value": "a\"b\u202e"}), `tags: repeats "a\"b\u202e"`},
		{domain.Invalid("to", "ranking.not_option", domain.Args{"value": "weekly", "attribute": "billing"}),
			`to: "weekly" is not a value of billing`},
		// A field error without English words (the web raises such) shows its code.
		{&domain.FieldError{Field: "to", Code: "field.whole_number"}, "to: field.whole_number"},
	}
	for _, tc := range tests {
		if got := tc.fe.Error(); got != tc.want {
			t.Errorf("Error() = %q, want %q", got, tc.want)
		}
		if !errors.Is(tc.fe, domain.ErrInvalid) {
			t.Errorf("%v is not ErrInvalid", tc.fe)
		}
	}
}
