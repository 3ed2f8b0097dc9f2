package projections_test

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestMigrateBilingualClaims: migration 033 moves a claim or a rationale
// projected as one string into the language it is written in, a string
// with a Han character to _zh and any other to _en, and splits the
// "中文 / English" ones as the upcaster does (its Go step), so an upgraded
// desk's read models equal a replay without a rebuild.
func TestMigrateBilingualClaims(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	names, err := filepath.Glob(filepath.Join("migrations", "*.sql"))
	if err != nil {
		t.Fatal(err)
	}
	before := len(names) - 1
	if filepath.Base(names[before]) != "033_bilingual_claims.sql" {
		t.Skipf("migration 033 is not the last (%s): this test set up the version before it", names[before])
	}
	for _, name := range names[:before] {
		body, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		mustExec(t, db, string(body))
	}
	mustExec(t, db, fmt.Sprintf("PRAGMA user_version = %d", before))
	for id, claim := range map[string]string{"e1": "按小时计费 / Billed by the hour", "e2": "TCP / UDP", "e3": "价格", "e4": "支持 TCP / UDP"} {
		mustExec(t, db, `INSERT INTO evidence(proposal, evidence_id, revision, claim, source_url, source_name, section, excerpt,
			observed_on, valid_for_days, added_by, added_at) VALUES ('p1', ?, 1, ?, '', 's', '', 'x', '2026-01-01', 0, 'ed', '2026-01-01T00:00:00Z')`,
			id, claim)
	}
	mustExec(t, db, `INSERT INTO changes(proposal, target, revision, rationale, evidence) VALUES ('p1', 'score:k', 1, 'Measured', '[]')`)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	s := open(t, path)
	rows, err := s.DB().Query(`SELECT evidence_id, claim_zh, claim_en FROM evidence ORDER BY evidence_id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	want := map[string][2]string{"e1": {"按小时计费", "Billed by the hour"}, "e2": {"", "TCP / UDP"}, "e3": {"价格", ""}, "e4": {"支持 TCP / UDP", ""}}
	n := 0
	for rows.Next() {
		var id, zh, en string
		if err := rows.Scan(&id, &zh, &en); err != nil {
			t.Fatal(err)
		}
		if w := want[id]; zh != w[0] || en != w[1] {
			t.Errorf("%s: zh %q en %q, want %q %q", id, zh, en, w[0], w[1])
		}
		n++
	}
	if n != len(want) {
		t.Errorf("%d evidence rows, want %d", n, len(want))
	}
	var zh, en string
	if err := s.DB().QueryRow(`SELECT rationale_zh, rationale_en FROM changes`).Scan(&zh, &en); err != nil || zh != "" || en != "Measured" {
		t.Errorf("rationale zh %q en %q, %v", zh, en, err)
	}
}
