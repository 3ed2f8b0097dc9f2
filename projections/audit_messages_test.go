package projections_test

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/crossrank/crossrank/projections"
)

// TestAuditMessagesListed reads the package's source: every say names a
// message of projections.AuditMessages, as a literal, with its listed
// arguments in order, and every listed message is said somewhere (but
// "legacy", which migration 016 writes). web/i18n checks that every
// listed message has words, so a message without words fails one of the
// two.
func TestAuditMessagesListed(t *testing.T) {
	listed := projections.AuditMessages()
	said := map[string]bool{}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
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
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "say" {
				return true
			}
			at := fset.Position(call.Pos())
			lits := make([]string, 0, len(call.Args))
			for i, arg := range call.Args {
				if i > 0 && i%2 == 0 {
					continue // a value
				}
				lit, ok := arg.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					t.Errorf("%s: say's message and argument names must be literals", at)
					return true
				}
				s, _ := strconv.Unquote(lit.Value)
				lits = append(lits, s)
			}
			if len(lits) == 0 {
				t.Errorf("%s: say without a message", at)
				return true
			}
			msg, names := lits[0], lits[1:]
			said[msg] = true
			want, ok := listed[msg]
			if !ok {
				t.Errorf("%s: message %q is not in auditMessages", at, msg)
			} else if !slices.Equal(names, want) && (len(names) > 0 || len(want) > 0) {
				t.Errorf("%s: %s says %v, auditMessages lists %v", at, msg, names, want)
			}
			if len(call.Args)%2 == 0 {
				t.Errorf("%s: %s has a name without its value", at, msg)
			}
			return true
		})
	}
	for msg := range listed {
		if !said[msg] && msg != "legacy" {
			t.Errorf("auditMessages lists %q, which nothing says", msg)
		}
	}
	if len(said) < 40 {
		t.Errorf("found %d messages said: the scan misses the calls", len(said))
	}
}

// TestAuditRowsSayTheirMessage: after a rebuild of a synthetic history,
// every audit row carries a listed message with exactly its listed
// arguments, and each argument is a number, a string, a list of strings
// or a text in both languages.
func TestAuditRowsSayTheirMessage(t *testing.T) {
	t.Parallel()
	env := synthetic(t, 500)
	path := filepath.Join(t.TempDir(), "read.db")
	if _, err := projections.Rebuild(testContext(t), env.Store, path); err != nil {
		t.Fatal(err)
	}
	listed := projections.AuditMessages()
	rows, err := open(t, path).DB().Query(`SELECT seq, msg, args FROM audit ORDER BY seq`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	seen := map[string]bool{}
	for rows.Next() {
		var seq int
		var msg, args string
		if err := rows.Scan(&seq, &msg, &args); err != nil {
			t.Fatal(err)
		}
		seen[msg] = true
		want, ok := listed[msg]
		if !ok {
			t.Errorf("seq %d: message %q is not listed", seq, msg)
			continue
		}
		d := json.NewDecoder(strings.NewReader(args))
		d.UseNumber()
		var vals map[string]any
		if err := d.Decode(&vals); err != nil {
			t.Errorf("seq %d: args %s: %v", seq, args, err)
			continue
		}
		var names []string
		for name, v := range vals {
			names = append(names, name)
			if !argValue(v) {
				t.Errorf("seq %d: %s: argument %s is %#v", seq, msg, name, v)
			}
		}
		slices.Sort(names)
		if w := slices.Sorted(slices.Values(want)); !slices.Equal(names, w) && len(names)+len(w) > 0 {
			t.Errorf("seq %d: %s has arguments %v, want %v", seq, msg, names, w)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if len(seen) < 10 {
		t.Errorf("the history said only %v", seen)
	}
}

func argValue(v any) bool {
	switch v := v.(type) {
	case string, json.Number:
		return true
	case []any:
		for _, e := range v {
			if _, ok := e.(string); !ok {
				return false
			}
		}
		return true
	case map[string]any:
		_, zh := v["zh"].(string)
		_, en := v["en"].(string)
		return zh && en && len(v) == 2
	}
	return false
}

// TestMigrateAuditMessages: a read model written before migration 016
// (schema version 15) opens with every audit row turned into the message
// "legacy" holding its two sentences as one text in both languages, and
// the sentence columns gone.
func TestMigrateAuditMessages(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "read.db")
	db, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	names, err := filepath.Glob(filepath.Join("migrations", "*.sql"))
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(names)
	for _, name := range names[:15] {
		body, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(string(body)); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	for _, q := range []string{"PRAGMA user_version = 15",
		`INSERT INTO audit (seq, at, actor, kind, aggregate, type, event_id, summary_en, summary_zh, before, after,
			ranking, entry, proposal, hash, authvia) VALUES (1, '2025-11-03T08:00:00Z', 'alice', 'user', 'alice',
			'crossrank.user.registered.v1', 'id-1', 'Registered user alice (admin) <b>', '注册用户 alice（admin）', '', '', '', '', '', 'h1', 'cli')`,
		"UPDATE checkpoint SET seq=1, audit_head='h1'"} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%.40s…: %v", q, err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	ps := open(t, path)
	page, err := ps.Audit(testContext(t), projections.AuditFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Rows) != 1 {
		t.Fatalf("rows after the migration: %+v", page.Rows)
	}
	r := page.Rows[0]
	var args struct{ Text struct{ Zh, En string } }
	dec := json.NewDecoder(bytes.NewReader(r.Args))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&args); err != nil {
		t.Fatalf("args %s: %v", r.Args, err)
	}
	if r.Msg != "legacy" || args.Text.En != "Registered user alice (admin) <b>" || args.Text.Zh != "注册用户 alice（admin）" ||
		r.Actor != "alice" || r.Hash != "h1" || r.AuthVia != "cli" {
		t.Errorf("row after the migration: %+v, args %+v", r, args)
	}
	var n int
	if err := ps.DB().QueryRow(`SELECT count(*) FROM pragma_table_info('audit') WHERE name LIKE 'summary_%'`).Scan(&n); err != nil || n != 0 {
		t.Errorf("summary columns left: %d (%v)", n, err)
	}
}
