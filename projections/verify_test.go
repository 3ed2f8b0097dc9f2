package projections_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/projections"
)

// TestVerify: verification passes on untouched models and names the
// edition or sequence of each kind of tampering: a snapshot row, an audit
// row's hash, and an edition whose committed snapshot hash is not what
// its ranking replays to.
func TestVerify(t *testing.T) {
	t.Parallel()
	env := synthetic(t, 500)
	ctx := testContext(t)
	path := filepath.Join(t.TempDir(), "read.db")
	if _, err := projections.Rebuild(ctx, env.Store, path); err != nil {
		t.Fatal(err)
	}
	s := open(t, path)
	db := s.DB()
	rep, err := projections.Verify(ctx, env.Store, db)
	if err != nil {
		t.Fatalf("untouched models: %v", err)
	}
	last, _ := s.Checkpoint()
	if rep.Events != last || rep.Editions < 2 || rep.Head == "" {
		t.Fatalf("verify report %+v; want %d events and at least two editions", rep, last)
	}
	if _, err := projections.Verify(ctx, env.Store, nil); err != nil {
		t.Fatalf("the stream alone: %v", err)
	}

	// mismatch runs Verify and returns the *Mismatch it must report.
	mismatch := func(what string, withDB bool) *projections.Mismatch {
		t.Helper()
		var target = db
		if !withDB {
			target = nil
		}
		_, err := projections.Verify(ctx, env.Store, target)
		var m *projections.Mismatch
		if !errors.As(err, &m) {
			t.Fatalf("%s: Verify returned %v, want a *Mismatch", what, err)
		}
		t.Logf("%s: %v", what, m)
		return m
	}
	exec := func(q string, args ...any) {
		t.Helper()
		if res, err := db.Exec(q, args...); err != nil {
			t.Fatal(err)
		} else if n, _ := res.RowsAffected(); n != 1 {
			t.Fatalf("%s changed %d rows", q, n)
		}
	}

	// (a) A snapshot row: the second edition of the stream.
	var ranking, snapshot string
	var number int
	var edSeq uint64
	if err := db.QueryRow("SELECT ranking, number, snapshot, seq FROM editions ORDER BY seq LIMIT 1 OFFSET 1").
		Scan(&ranking, &number, &snapshot, &edSeq); err != nil {
		t.Fatal(err)
	}
	tampered := strings.Replace(snapshot, `"rank":1,`, `"rank":2,`, 1)
	if tampered == snapshot {
		t.Fatal("snapshot has no rank 1")
	}
	exec("UPDATE editions SET snapshot=? WHERE ranking=? AND number=?", tampered, ranking, number)
	if m := mismatch("tampered snapshot", true); m.Edition != number || m.Seq != edSeq {
		t.Errorf("tampered snapshot: mismatch names edition %d at %d, want edition %d at %d", m.Edition, m.Seq, number, edSeq)
	}
	exec("UPDATE editions SET snapshot=? WHERE ranking=? AND number=?", snapshot, ranking, number)

	// (b) One audit row's hash.
	const seq = 101
	var hash string
	if err := db.QueryRow("SELECT hash FROM audit WHERE seq=?", seq).Scan(&hash); err != nil {
		t.Fatal(err)
	}
	exec("UPDATE audit SET hash=? WHERE seq=?", strings.Repeat("0", 64), seq)
	if m := mismatch("tampered audit hash", true); m.Seq != seq || m.Edition != 0 {
		t.Errorf("tampered audit hash: mismatch names edition %d at %d, want sequence %d", m.Edition, m.Seq, seq)
	}
	exec("UPDATE audit SET hash=? WHERE seq=?", hash, seq)
	if _, err := projections.Verify(ctx, env.Store, db); err != nil {
		t.Fatalf("after undoing the tampering: %v", err)
	}

	// (c) An edition appended by hand whose committed snapshot hash is not
	// the hash of the ranking it publishes.
	agg := domain.EditionID(ranking)
	stored, err := env.Store.Load(ctx, agg, 0)
	if err != nil || len(stored) == 0 {
		t.Fatalf("load %s: %d events, %v", agg, len(stored), err)
	}
	prev := stored[len(stored)-1]
	next := prev.Data.(*events.EditionPublished).Number + 1
	now := time.Now()
	forged, err := events.New(events.NewID(now), now, "publisher", ranking, &events.EditionPublished{
		Ranking: ranking, Number: next, Proposals: []string{}, Changes: []events.AppliedChange{},
		PreviewHash: strings.Repeat("1", 64), SnapshotHash: strings.Repeat("2", 64), Note: "forged"})
	if err != nil {
		t.Fatal(err)
	}
	forgedSeq, err := env.Store.Append(ctx, []events.Expectation{{Aggregate: agg, LastSeq: prev.Sequence}}, forged)
	if err != nil {
		t.Fatal(err)
	}
	for _, withDB := range []bool{false, true} {
		if m := mismatch("forged edition", withDB); m.Edition != next || m.Seq != forgedSeq {
			t.Errorf("forged edition (read model %v): mismatch names edition %d at %d, want edition %d at %d",
				withDB, m.Edition, m.Seq, next, forgedSeq)
		}
	}
	// The projection applies the forged edition as it was committed; Verify
	// still names it.
	runToEnd(t, s, env.Store, forgedSeq)
	if m := mismatch("forged edition, projected", true); m.Edition != next || m.Seq != forgedSeq {
		t.Errorf("projected forged edition: mismatch names edition %d at %d, want %d at %d", m.Edition, m.Seq, next, forgedSeq)
	}
}
