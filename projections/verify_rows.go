package projections

import (
	"cmp"
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/crossrank/crossrank/events"
)

// verifyHooks lets a test act between the steps of compareReadModel; the
// zero value does nothing.
type verifyHooks struct {
	built    func() // the replayed model has reached the first checkpoint read
	snapshot func() // the live model's read transaction has begun
}

// compareReadModel replays the stream with the projection's own code into a
// temporary read model and compares every table of it, row by row and
// column by column, with the live one, as of the live model's checkpoint.
// It returns that checkpoint and the number of rows compared.
//
// The live model may belong to a running server that keeps applying
// events. Its rows are read in one read transaction, a snapshot at one
// checkpoint, and the replayed model is brought to exactly that checkpoint
// first: most of it is built before the transaction begins, so that the
// transaction (which keeps the WAL from being checkpointed past it) lasts
// only as long as the comparison.
//
// The build replays the whole stream and passes every event to check, in
// order, on the goroutine that reads the stream.
func compareReadModel(ctx context.Context, src Replayer, live *sql.DB, check func(events.Event) error, hooks verifyHooks) (uint64, uint64, error) {
	var first uint64
	if err := live.QueryRowContext(ctx, "SELECT seq FROM checkpoint WHERE id=1").Scan(&first); err != nil {
		return 0, 0, err
	}
	dir, err := os.MkdirTemp(tempDirNextTo(ctx, live), ".verify-*")
	if err != nil {
		return 0, 0, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "read.db")
	if _, err := build(ctx, upTo{src: src, last: first, check: check}, path); err != nil {
		return 0, 0, err
	}
	replayed, err := Open(path)
	if err != nil {
		return 0, 0, err
	}
	defer replayed.Close()
	if err := behind(replayed, first); err != nil {
		return 0, 0, err
	}
	if hooks.built != nil {
		hooks.built()
	}

	snap, err := live.Conn(ctx)
	if err != nil {
		return 0, 0, err
	}
	defer snap.Close()
	// A deferred BEGIN by hand: database/sql's BeginTx would run the DSN's
	// BEGIN IMMEDIATE, which takes the write lock from the projection for
	// as long as the comparison runs.
	if _, err := snap.ExecContext(ctx, "BEGIN"); err != nil {
		return 0, 0, err
	}
	defer func() {
		if _, err := snap.ExecContext(context.Background(), "ROLLBACK"); err != nil {
			// Never hand the pool a connection stuck in an old snapshot.
			snap.Raw(func(any) error { return driver.ErrBadConn })
		}
	}()
	var seq uint64
	if err := snap.QueryRowContext(ctx, "SELECT seq FROM checkpoint WHERE id=1").Scan(&seq); err != nil {
		return 0, 0, err
	}
	if seq < first {
		return 0, 0, fmt.Errorf("projections: verify: the read model's checkpoint went back from sequence %d to %d", first, seq)
	}
	if err := catchUp(ctx, upTo{src: src, last: seq}, replayed, first); err != nil {
		return 0, 0, err
	}
	if err := behind(replayed, seq); err != nil {
		return 0, 0, err
	}
	if hooks.snapshot != nil {
		hooks.snapshot()
	}
	rows, err := compareTables(ctx, replayed.DB(), snap, seq)
	return seq, rows, err
}

// behind returns a Mismatch when the replayed model did not reach seq: the
// live read model has applied events the stream does not hold.
func behind(replayed *Store, seq uint64) error {
	if got, _ := replayed.Checkpoint(); got < seq {
		return &Mismatch{Seq: seq, Table: "checkpoint", Column: "seq",
			What: fmt.Sprintf("the read model is at sequence %d, ahead of the stream, which ends at %d", seq, got)}
	}
	return nil
}

// tempDirNextTo returns the directory of the database file behind db, where
// the replayed model has the same file system and room to grow as the live
// one, or the system's temporary directory for a database without a file.
func tempDirNextTo(ctx context.Context, db *sql.DB) string {
	var file string
	err := db.QueryRowContext(ctx, "SELECT file FROM pragma_database_list WHERE name='main'").Scan(&file)
	if err != nil || file == "" {
		return os.TempDir()
	}
	return filepath.Dir(file)
}

// upTo is src replayed up to sequence last only. With check, src is
// replayed to its end all the same, and check sees every event first.
type upTo struct {
	src   Replayer
	last  uint64
	check func(events.Event) error
}

var errReplayedEnough = errors.New("projections: replayed up to the sequence wanted")

func (u upTo) Replay(ctx context.Context, from uint64, fn func(events.Event) error) error {
	if from > u.last && u.check == nil {
		return nil
	}
	err := u.src.Replay(ctx, from, func(ev events.Event) error {
		if u.check != nil {
			if err := u.check(ev); err != nil {
				return err
			}
		}
		switch {
		case ev.Sequence > u.last && u.check != nil:
			return nil
		case ev.Sequence > u.last:
			return errReplayedEnough
		}
		if err := fn(ev); err != nil {
			return err
		}
		if ev.Sequence == u.last && u.check == nil {
			return errReplayedEnough // rather than wait for the stream's end
		}
		return nil
	})
	if errors.Is(err, errReplayedEnough) {
		return nil
	}
	return err
}

// catchUp applies the events src replays after sequence from to s, in
// batches of BatchSize.
func catchUp(ctx context.Context, src Replayer, s *Store, from uint64) error {
	batch := make([]events.Event, 0, BatchSize)
	err := src.Replay(ctx, from+1, func(ev events.Event) error {
		batch = append(batch, ev)
		if len(batch) < BatchSize {
			return nil
		}
		err := s.Apply(ctx, batch)
		batch = batch[:0]
		return err
	})
	if err == nil && len(batch) > 0 {
		err = s.Apply(ctx, batch)
	}
	return err
}

// queryer is what compareTables reads from: a *sql.DB, or the *sql.Conn
// holding a read transaction.
type queryer interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// compareTables compares every table of the replayed model with the same
// table of the live one and returns the rows compared, or a Mismatch naming
// the first difference. The audit trail comes first, then the tables in
// name order.
func compareTables(ctx context.Context, replayed *sql.DB, live queryer, seq uint64) (uint64, error) {
	names, err := tables(ctx, replayed)
	if err != nil {
		return 0, err
	}
	later := func(table string) int {
		if table == "audit" {
			return 0
		}
		return 1
	}
	slices.SortStableFunc(names, func(a, b string) int { return cmp.Compare(later(a), later(b)) })
	var n uint64
	for _, table := range names {
		rows, err := compareTable(ctx, table, replayed, live, seq)
		n += rows
		if err != nil {
			return n, err
		}
	}
	return n, nil
}
