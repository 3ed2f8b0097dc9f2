package projections_test

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/projections"
)

// TestMigrateEditionMoves: a read model written before migration 012, with
// edition_moves one row per entry per scope as the projector wrote them
// then, opens with the rows folded into one per entry, byte for byte what
// a rebuild writes, and verifies against the stream without a replay.
func TestMigrateEditionMoves(t *testing.T) {
	if testing.Short() {
		t.Skip("full run only: migrates a 3,000-entry history; go test -short skips it")
	}
	ctx := testContext(t)
	env := synthetic(t, 3000)
	dir := t.TempDir()
	rebuiltPath := filepath.Join(dir, "rebuilt.db")
	if _, err := projections.Rebuild(ctx, env.Store, rebuiltPath); err != nil {
		t.Fatal(err)
	}
	want := dump(t, open(t, rebuiltPath))

	// The same models at schema version 11, every table copied but
	// edition_moves, which holds the rows the older projector wrote (and
	// the search index, which migration 14 adds and Open fills, and the
	// tables of later migrations, which the synthetic history leaves empty).
	oldPath := filepath.Join(dir, "old.db")
	db, err := sql.Open("sqlite3", "file:"+oldPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1) // ATTACH holds for one connection
	names, err := filepath.Glob(filepath.Join("migrations", "*.sql"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names[:11] {
		body, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		mustExec(t, db, string(body))
	}
	mustExec(t, db, "PRAGMA user_version = 11")
	mustExec(t, db, "ATTACH ? AS rebuilt", rebuiltPath)
	tables, err := db.Query(`SELECT name FROM rebuilt.sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%' AND name != 'edition_moves' AND name NOT LIKE 'search_%'
		AND name IN (SELECT name FROM main.sqlite_master WHERE type='table')`)
	if err != nil {
		t.Fatal(err)
	}
	var copyRows []string
	for tables.Next() {
		var name string
		if err := tables.Scan(&name); err != nil {
			t.Fatal(err)
		}
		if name == "audit" {
			// The audit rows as the columns of version 11 hold them: the
			// words of a row, which migration 016 replaces with a message
			// id, are set back below.
			copyRows = append(copyRows, `INSERT INTO main.audit(seq, at, actor, kind, aggregate, type, event_id,
				summary_en, summary_zh, before, after, ranking, entry, proposal, hash, authvia)
				SELECT seq, at, actor, kind, aggregate, type, event_id, '', '', before, after, ranking, entry, proposal, hash, authvia
				FROM rebuilt.audit`)
			continue
		}
		copyRows = append(copyRows, name)
	}
	tables.Close()
	for i, name := range copyRows {
		if strings.HasPrefix(name, "INSERT") {
			continue
		}
		// The columns version 11 has: a later migration may add one to
		// the table (032: evidence.capture_attempts), which it fills.
		cols, err := db.Query(fmt.Sprintf("SELECT name FROM pragma_table_info(%s, 'main')", sqlQuote(name)))
		if err != nil {
			t.Fatal(err)
		}
		var names, values []string
		for cols.Next() {
			var c string
			if err := cols.Scan(&c); err != nil {
				t.Fatal(err)
			}
			names = append(names, fmt.Sprintf("%q", c))
			values = append(values, version11Value(c))
		}
		cols.Close()
		copyRows[i] = fmt.Sprintf("INSERT OR REPLACE INTO main.%q (%s) SELECT %s FROM rebuilt.%[1]q", name,
			strings.Join(names, ", "), strings.Join(values, ", "))
	}
	for _, q := range copyRows {
		mustExec(t, db, q)
	}
	snaps, err := db.Query("SELECT ranking, number, snapshot FROM rebuilt.editions ORDER BY ranking, number")
	if err != nil {
		t.Fatal(err)
	}
	var eds []domain.Snapshot
	for snaps.Next() {
		var ranking, raw string
		var number int
		var s domain.Snapshot
		if err := snaps.Scan(&ranking, &number, &raw); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(raw), &s); err != nil {
			t.Fatal(err)
		}
		eds = append(eds, s)
	}
	snaps.Close()
	rows, scenarioRows := 0, 0
	for i, after := range eds {
		var before domain.Snapshot
		if i > 0 && eds[i-1].Ranking == after.Ranking {
			before = eds[i-1]
		}
		for _, m := range movesByScope(before, after) {
			mustExec(t, db, "INSERT INTO edition_moves VALUES (?,?,?,?,?,?,?,?)",
				after.Ranking, after.Edition, m.entry, m.scope, m.before, m.after, m.beforeTotal, m.afterTotal)
			rows++
			if m.scope != "overall" && m.scope != "category" && m.before != nil {
				scenarioRows++
			}
		}
	}
	if len(eds) < 3 || scenarioRows == 0 {
		t.Fatalf("the history is too small: %d editions, %d scenario moves", len(eds), scenarioRows)
	}
	mustExec(t, db, "DETACH rebuilt")
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	migrated, err := projections.Open(oldPath) // migrates
	if err != nil {
		t.Fatal(err)
	}
	if err := migrated.Close(); err != nil {
		t.Fatal(err)
	}
	// Migration 016 makes every audit row of an older model the message
	// "legacy" until a rebuild (TestMigrateAuditMessages); this test is
	// about edition_moves, so the rows get the messages a rebuild writes.
	fix, err := sql.Open("sqlite3", "file:"+oldPath)
	if err != nil {
		t.Fatal(err)
	}
	fix.SetMaxOpenConns(1)
	mustExec(t, fix, "ATTACH ? AS rebuilt", rebuiltPath)
	mustExec(t, fix, `UPDATE main.audit SET (msg, args) = (SELECT r.msg, r.args FROM rebuilt.audit r WHERE r.seq=audit.seq)`)
	// Likewise migration 033 moves a one-string claim or rationale whole
	// into one language until a rebuild splits it (TestMigrateBilingualClaims).
	mustExec(t, fix, `UPDATE main.evidence SET (claim_zh, claim_en) = (SELECT r.claim_zh, r.claim_en FROM rebuilt.evidence r
		WHERE r.proposal=evidence.proposal AND r.evidence_id=evidence.evidence_id)`)
	mustExec(t, fix, `UPDATE main.changes SET (rationale_zh, rationale_en) = (SELECT r.rationale_zh, r.rationale_en FROM rebuilt.changes r
		WHERE r.proposal=changes.proposal AND r.target=changes.target)`)
	mustExec(t, fix, `UPDATE main.methodology_proposals SET (rationale_zh, rationale_en) = (SELECT r.rationale_zh, r.rationale_en
		FROM rebuilt.methodology_proposals r WHERE r.proposal=methodology_proposals.proposal)`)
	if err := fix.Close(); err != nil {
		t.Fatal(err)
	}
	ps := open(t, oldPath) // indexes the claims the fix marked for search
	if got := dump(t, ps); got != want {
		t.Errorf("the migrated models differ from a rebuild (%d rows by scope): %s", rows, diff(want, got))
	}
	if _, err := projections.Verify(ctx, env.Store, ps.DB()); err != nil {
		t.Errorf("verify the migrated models: %v", err)
	}
}

func mustExec(t *testing.T, db *sql.DB, q string, args ...any) {
	t.Helper()
	if _, err := db.Exec(q, args...); err != nil {
		t.Fatalf("%.60s…: %v", q, err)
	}
}

type scopeMove struct {
	entry, scope        string
	before, beforeTotal *int
	after, afterTotal   int
}

// movesByScope is what the projector recorded for an edition before
// migration 012: per entry a row overall, one in its category and one per
// scenario (totals NULL and 0 there).
func movesByScope(before, after domain.Snapshot) []scopeMove {
	type pos struct{ rank, catRank, total int }
	prev := map[string]pos{}
	for _, e := range before.Entries {
		prev[e.Slug] = pos{e.Rank, e.CategoryRank, e.Total}
	}
	var out []scopeMove
	for _, e := range after.Entries {
		var b, bc, bt *int
		if old, ok := prev[e.Slug]; ok {
			b, bc, bt = &old.rank, &old.catRank, &old.total
		}
		out = append(out, scopeMove{e.Slug, "overall", b, bt, e.Rank, e.Total},
			scopeMove{e.Slug, "category", bc, bt, e.CategoryRank, e.Total})
	}
	prevScen := map[string]map[string]int{}
	for _, s := range before.Scenarios {
		prevScen[s.Slug] = map[string]int{}
		for i, e := range s.Order {
			prevScen[s.Slug][e] = i + 1
		}
	}
	for _, s := range after.Scenarios {
		for i, e := range s.Order {
			var b *int
			if r, ok := prevScen[s.Slug][e]; ok {
				b = &r
			}
			out = append(out, scopeMove{e, "scenario:" + s.Slug, b, nil, i + 1, 0})
		}
	}
	return out
}

// sqlQuote quotes s as an SQL string literal.
// version11Value is what a version-11 column held, read from a rebuilt
// model: the column itself, or, for the one-string claim and rationale
// that migration 033 made bilingual, both languages side by side as
// claims were written then.
func version11Value(col string) string {
	switch col {
	case "claim", "rationale":
		return fmt.Sprintf(`CASE WHEN %[1]s_zh <> '' AND %[1]s_en <> '' THEN %[1]s_zh || ' / ' || %[1]s_en ELSE %[1]s_zh || %[1]s_en END`, col)
	}
	return fmt.Sprintf("%q", col)
}

func sqlQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
