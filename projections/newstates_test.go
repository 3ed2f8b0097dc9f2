package projections

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/crossrank/crossrank/domain"
)

// TestNewStatesCheck: a state skipped as new to the rebuild while its row
// is in the table fails the check the package's tests run under, and a
// state the rebuild has loaded before is looked up again.
func TestNewStatesCheck(t *testing.T) {
	if !checkNewStates {
		t.Fatal("checkNewStates is off: the rebuilds in these tests would not check the states they skip")
	}
	path := filepath.Join(t.TempDir(), "read.db")
	db, err := openDSN(path, rebuildDSN(path))
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	w, err := openWConn(rebuildDSN(path))
	if err != nil {
		t.Fatal(err)
	}
	defer w.close()
	if empty, err := emptyStates(w); err != nil || !empty {
		t.Fatalf("new file: empty states = %v, %v", empty, err)
	}
	w.pipelined()
	s := &Store{w: w, path: path, changed: make(chan struct{}), news: newNewStates()}
	tx, err := s.begin(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer tx.rollback()
	seen, behind := domain.ProposalID("seen"), domain.ProposalID("behind")
	if _, err := tx.p.state(seen); err != nil {
		t.Fatal(err)
	}
	for _, a := range []string{"seen", "behind"} {
		if err := w.exec("INSERT INTO states(kind, id, seq, state) VALUES (?,?,?,?)", "proposal", a, 1, `{"ID":"`+a+`"}`); err != nil {
			t.Fatal(err)
		}
	}
	// Seen before and out of the memo (trimmed between transactions): loaded.
	delete(tx.p.states, seen)
	if _, err := tx.p.state(seen); err != nil {
		t.Fatalf("state seen before: %v", err)
	}
	if _, err := tx.p.state(behind); !errors.Is(err, errNewStateFound) {
		t.Fatalf("state written behind the rebuild's back: got %v, want %v", err, errNewStateFound)
	}
	if empty, err := emptyStates(w); err != nil || empty {
		t.Fatalf("with rows: empty states = %v, %v", empty, err)
	}
}
