package projections_test

import (
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/projections"
)

// TestAuditAuthVia: the audit trail keeps each event's ce-authvia as
// stored: the demo seed runs from the command line, and a command of a
// signed-in user says how they signed in.
func TestAuditAuthVia(t *testing.T) {
	h, ps, env := seededDesk(t)
	ctx := testContext(t)
	if err := ps.AuditEach(ctx, projections.AuditFilter{}, func(r projections.AuditRow) error {
		if r.AuthVia != events.ViaCLI {
			t.Errorf("seeded event %d (%s by %s): authvia %q, want %q", r.Seq, r.Type, r.Actor, r.AuthVia, events.ViaCLI)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	ed := editor
	ed.Via = events.Via{Method: events.ViaSession}
	do(t, "token")(h.IssueToken(ctx, ed, domain.IssueToken{User: "editor", TokenID: "tok-ci", Name: "CI; 机器人",
		Hash: strings.Repeat("ab", 32)}))
	ed.Via = events.Via{Method: events.ViaToken, TokenID: "tok-ci", TokenName: "CI; 机器人"}
	do(t, "revoke")(h.RevokeToken(ctx, ed, domain.RevokeToken{User: "editor", TokenID: "tok-ci"}))
	catchUp(t, env, ps)
	page, err := ps.Audit(ctx, projections.AuditFilter{Actor: "editor", Limit: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Rows) != 2 {
		t.Fatalf("%d rows, want 2", len(page.Rows))
	}
	if got, want := page.Rows[0].AuthVia, "token;id=tok-ci;name=CI%3B+%E6%9C%BA%E5%99%A8%E4%BA%BA"; got != want {
		t.Errorf("revocation by token: authvia %q, want %q", got, want)
	}
	if got := page.Rows[1].AuthVia; got != events.ViaSession {
		t.Errorf("issue in a session: authvia %q, want %q", got, events.ViaSession)
	}
}

// TestMigrateAuditAuthVia: a read-model file written before the authvia
// column existed (schema version 1) opens with the column added, its rows
// reading "" as an event without the attribute does.
func TestMigrateAuditAuthVia(t *testing.T) {
	path := filepath.Join(t.TempDir(), "read.db")
	schema, err := os.ReadFile(filepath.Join("migrations", "001_init.sql"))
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{string(schema), "PRAGMA user_version = 1",
		`INSERT INTO audit (seq, at, actor, kind, aggregate, type, event_id, summary_en, summary_zh, before, after,
			ranking, entry, proposal, hash) VALUES (1, '2025-11-03T08:00:00Z', 'alice', 'user', 'alice',
			'crossrank.user.registered.v1', 'id-1', 's', 's', '', '', '', '', '', 'h1')`,
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
	if len(page.Rows) != 1 || page.Rows[0].Actor != "alice" || page.Rows[0].AuthVia != "" || page.Rows[0].Hash != "h1" {
		t.Errorf("rows after the migration: %+v", page.Rows)
	}
}
