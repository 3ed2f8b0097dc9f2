package projections_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/projections/history"
)

// TestVerifyComparesRows: Verify recomputes the rows readers see from the
// stream and names the first one the read model changed — its table, its
// key and its column — whether an audit row's actor, message or its arguments, a
// published score or the URL or excerpt of published evidence; a row
// deleted or added is named too.
func TestVerifyComparesRows(t *testing.T) {
	t.Parallel()
	env := synthetic(t, 500)
	ctx := testContext(t)
	base := filepath.Join(t.TempDir(), "read.db")
	if _, err := projections.Rebuild(ctx, env.Store, base); err != nil {
		t.Fatal(err)
	}
	db := open(t, copyFile(t, base)).DB()
	rep, err := projections.Verify(ctx, env.Store, db)
	if err != nil {
		t.Fatalf("untouched models: %v", err)
	}
	if rep.ReadModelSeq != rep.Events || rep.Rows < rep.Events {
		t.Fatalf("verify report %+v: want the rows compared at sequence %d, at least one per event", rep, rep.Events)
	}

	// A score the latest edition of its ranking published, and evidence
	// published behind a score or an attribute.
	var ranking, entry, criterion string
	if err := db.QueryRow(`SELECT s.ranking, s.entry, s.criterion FROM scores s
		JOIN rankings r ON r.slug=s.ranking AND r.edition=s.edition ORDER BY 1, 2, 3 LIMIT 1`).
		Scan(&ranking, &entry, &criterion); err != nil {
		t.Fatalf("a score of a current edition: %v", err)
	}
	var pe [5]any // ranking, entry, target, proposal, evidence_id
	if err := db.QueryRow(`SELECT p.ranking, p.entry, p.target, p.proposal, p.evidence_id FROM published_evidence p
		JOIN evidence e ON e.proposal=p.proposal AND e.evidence_id=p.evidence_id ORDER BY 1, 2, 3, 4, 5 LIMIT 1`).
		Scan(&pe[0], &pe[1], &pe[2], &pe[3], &pe[4]); err != nil {
		t.Fatalf("published evidence: %v", err)
	}
	scoreKey := fmt.Sprintf("ranking %q, entry %q, criterion %q", ranking, entry, criterion)
	evidenceKey := fmt.Sprintf("proposal %q, evidence_id %q", pe[3], pe[4])
	publishedKey := fmt.Sprintf("ranking %q, entry %q, target %q, proposal %q, evidence_id %q", pe[0], pe[1], pe[2], pe[3], pe[4])
	const seq = 57

	for _, tc := range []struct {
		name            string
		tamper          string
		args            []any
		table, key, col string // the mismatch wanted
		seq             uint64 // 0: the checkpoint
		what            string // in the mismatch's description
	}{
		{name: "audit actor",
			tamper: "UPDATE audit SET actor=? WHERE seq=?", args: []any{"mallory", seq},
			table: "audit", key: "seq 57", col: "actor", seq: seq, what: `actor is "mallory" in the read model, "`},
		{name: "audit message",
			tamper: "UPDATE audit SET msg=? WHERE seq=?", args: []any{"nothing_to_see", seq},
			table: "audit", key: "seq 57", col: "msg", seq: seq, what: `msg is "nothing_to_see" in the read model`},
		{name: "audit message arguments",
			tamper: "UPDATE audit SET args=json_set(args, '$.forged', 1) WHERE seq=?", args: []any{seq},
			table: "audit", key: "seq 57", col: "args", seq: seq},
		{name: "published score",
			tamper: "UPDATE scores SET score=score+1 WHERE ranking=? AND entry=? AND criterion=?", args: []any{ranking, entry, criterion},
			table: "scores", key: scoreKey, col: "score"},
		{name: "evidence URL",
			tamper: "UPDATE evidence SET source_url=? WHERE proposal=? AND evidence_id=?", args: []any{"https://example.com/forged", pe[3], pe[4]},
			table: "evidence", key: evidenceKey, col: "source_url", what: `source_url is "https://example.com/forged" in the read model`},
		{name: "evidence excerpt",
			tamper: "UPDATE evidence SET excerpt=excerpt||' (and more)' WHERE proposal=? AND evidence_id=?", args: []any{pe[3], pe[4]},
			table: "evidence", key: evidenceKey, col: "excerpt"},
		{name: "published evidence deleted",
			tamper: "DELETE FROM published_evidence WHERE ranking=? AND entry=? AND target=? AND proposal=? AND evidence_id=?", args: pe[:],
			table: "published_evidence", key: publishedKey, what: "is missing from the read model"},
		{name: "score added",
			tamper: "INSERT INTO scores SELECT ranking, entry, 'zz-forged', score, proposal, edition FROM scores WHERE ranking=? AND entry=? AND criterion=?",
			args:   []any{ranking, entry, criterion},
			table:  "scores", key: fmt.Sprintf("ranking %q, entry %q, criterion %q", ranking, entry, "zz-forged"),
			what: "is in the read model but not in the replay"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := open(t, copyFile(t, base)).DB()
			if res, err := db.Exec(tc.tamper, tc.args...); err != nil {
				t.Fatal(err)
			} else if n, _ := res.RowsAffected(); n != 1 {
				t.Fatalf("%s changed %d rows", tc.tamper, n)
			}
			_, err := projections.Verify(ctx, env.Store, db)
			var m *projections.Mismatch
			if !errors.As(err, &m) {
				t.Fatalf("Verify returned %v, want a *Mismatch", err)
			}
			t.Logf("%v", m)
			wantSeq := tc.seq
			if wantSeq == 0 {
				wantSeq = rep.ReadModelSeq
			}
			if m.Table != tc.table || m.Key != tc.key || m.Column != tc.col || m.Seq != wantSeq || m.Edition != 0 {
				t.Errorf("mismatch names table %q, key %q, column %q at sequence %d (edition %d); want %q, %q, %q at %d",
					m.Table, m.Key, m.Column, m.Seq, m.Edition, tc.table, tc.key, tc.col, wantSeq)
			}
			if !strings.Contains(m.Error(), tc.what) || !strings.Contains(m.Error(), tc.table+" row ("+tc.key+")") {
				t.Errorf("mismatch says %q; want it to name the row and say %q", m.Error(), tc.what)
			}
		})
	}
}

// copyFile copies the closed database file at path into a new directory
// and returns the copy's path.
func copyFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), filepath.Base(path))
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return dst
}

// TestVerifyWhileApplying: an untouched read model that a running
// projection keeps applying new events to verifies — with events applied
// while the replayed model is being built and while the rows are being
// compared, and with a history being written all along.
func TestVerifyWhileApplying(t *testing.T) {
	t.Parallel()
	env := synthetic(t, 300)
	ctx := testContext(t)
	s := open(t, filepath.Join(t.TempDir(), "read.db"))
	runCtx, stopRun := context.WithCancel(ctx)
	var run sync.WaitGroup
	run.Go(func() {
		if err := s.Run(runCtx, env.Store, nil); err != nil {
			t.Errorf("run: %v", err)
		}
	})
	defer run.Wait()
	defer stopRun()
	seed := int64(100)
	// more appends a small history and waits until the read model has it.
	more := func() uint64 {
		seed++
		if err := history.Generate(ctx, env.Store, 50, seed); err != nil {
			t.Fatal(err)
		}
		last, err := env.Store.LastSequence(ctx)
		if err != nil {
			t.Fatal(err)
		}
		waitApplied(t, s, last)
		return last
	}
	first := more()

	// Events applied after the first checkpoint was read, and again after
	// the live rows' snapshot was taken.
	var built, snapshot uint64
	rep, err := projections.VerifyPausing(ctx, env.Store, s.DB(),
		func() { built = more() }, func() { snapshot = more() })
	if err != nil {
		t.Fatalf("verify while events were applied: %v", err)
	}
	if !(first < built && built < snapshot) || rep.ReadModelSeq != built {
		t.Fatalf("compared at sequence %d; want %d, the checkpoint when the snapshot was taken (first %d, later %d)",
			rep.ReadModelSeq, built, first, snapshot)
	}

	// A history written while verify runs again and again.
	done := make(chan struct{})
	var writer sync.WaitGroup
	writer.Go(func() {
		defer close(done)
		for range 3 {
			if err := history.Generate(ctx, env.Store, 300, seed+1000); err != nil {
				t.Error(err)
				return
			}
			seed++
		}
	})
	defer writer.Wait()
	for runs := 0; ; runs++ {
		select {
		case <-done:
			if runs == 0 {
				t.Fatal("the history was written before verify ran once")
			}
			return
		default:
		}
		rep, err := projections.Verify(ctx, env.Store, s.DB())
		if err != nil {
			t.Fatalf("verify #%d while a history was written: %v", runs+1, err)
		}
		t.Logf("verify #%d: %d events in the stream, rows compared at sequence %d", runs+1, rep.Events, rep.ReadModelSeq)
	}
}
