package projections

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"

	"github.com/mattn/go-sqlite3"
)

// wconn is the projection's write connection, opened through the SQLite
// driver directly rather than from database/sql's pool (which serves the
// readers). Applying events runs tens of statements per event; through
// database/sql each paid for its locks, argument conversion and result
// bookkeeping about as much as SQLite spent executing it. Here statements
// are prepared once per connection and bound straight from the values.
// A wconn is used by one goroutine at a time (the Store's applying lock).
type wconn struct {
	c     *sqlite3.SQLiteConn
	stmts map[string]*sqlite3.SQLiteStmt
	args  []driver.NamedValue // reused by every call
	pipe  *pipeline           // while set, exec queues statements for its executor
}

func openWConn(dsn string) (*wconn, error) {
	c, err := (&sqlite3.SQLiteDriver{}).Open(dsn)
	if err != nil {
		return nil, err
	}
	return &wconn{c: c.(*sqlite3.SQLiteConn), stmts: map[string]*sqlite3.SQLiteStmt{}}, nil
}

// close closes the statements and the connection; again, nothing. It
// returns a queued statement's error if no sync point has yet.
func (w *wconn) close() error {
	if w.c == nil {
		return nil
	}
	perr := w.unpipelined()
	for _, st := range w.stmts {
		st.Close()
	}
	clear(w.stmts)
	c := w.c
	w.c = nil
	if err := c.Close(); perr == nil {
		perr = err
	}
	return perr
}

// run executes statements without arguments (BEGIN, COMMIT, PRAGMA …).
func (w *wconn) run(q string) error {
	if err := w.sync(); err != nil {
		return err
	}
	_, err := w.c.Exec(q, nil)
	return err
}

func (w *wconn) stmt(q string) (*sqlite3.SQLiteStmt, error) {
	if st, ok := w.stmts[q]; ok {
		return st, nil
	}
	ds, err := w.c.Prepare(q)
	if err != nil {
		return nil, err
	}
	st := ds.(*sqlite3.SQLiteStmt)
	w.stmts[q] = st
	return st, nil
}

// bind converts args to the driver's values in w.args.
func (w *wconn) bind(args []any) ([]driver.NamedValue, error) {
	nv, err := appendBound(w.args[:0], args)
	w.args = nv
	return nv, err
}

// appendBound appends args converted to the driver's values: the types the
// projector passes, with integers as int64.
func appendBound(nv []driver.NamedValue, args []any) ([]driver.NamedValue, error) {
	for i, a := range args {
		var v driver.Value
		switch x := a.(type) {
		case nil, string, int64, []byte, float64, bool:
			v = x
		case int:
			v = int64(x)
		case uint64:
			v = int64(x)
		case int32:
			v = int64(x)
		default:
			return nv, fmt.Errorf("projections: cannot bind %T", a)
		}
		nv = append(nv, driver.NamedValue{Ordinal: i + 1, Value: v})
	}
	return nv, nil
}

// prepared returns q's statement and args bound for it; release drops the
// references to the values once the statement has run.
func (w *wconn) prepared(q string, args []any) (*sqlite3.SQLiteStmt, []driver.NamedValue, error) {
	st, err := w.stmt(q)
	if err != nil {
		return nil, nil, err
	}
	nv, err := w.bind(args)
	return st, nv, err
}

func (w *wconn) release() { clear(w.args) }

// exec runs q with args, or queues it while the connection is pipelined.
func (w *wconn) exec(q string, args ...any) error {
	if w.pipe != nil {
		return w.pipe.exec(q, args)
	}
	st, nv, err := w.prepared(q, args)
	if err != nil {
		return err
	}
	_, err = st.ExecContext(context.Background(), nv)
	w.release()
	return err
}

// query runs q with args and calls fn with each row's values (strings,
// int64s, []bytes or nil; valid during the call only).
func (w *wconn) query(q string, args []any, fn func(row []driver.Value) error) error {
	if err := w.sync(); err != nil {
		return err
	}
	st, nv, err := w.prepared(q, args)
	if err != nil {
		return err
	}
	rows, err := st.QueryContext(context.Background(), nv)
	w.release()
	if err != nil {
		return err
	}
	row := make([]driver.Value, len(rows.Columns()))
	for {
		if err := rows.Next(row); err != nil {
			rows.Close()
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		if err := fn(row); err != nil {
			rows.Close()
			return err
		}
	}
}

// errNoRow is queryRow's answer when q returns no row.
var errNoRow = errors.New("projections: no row")

// queryRow runs q and returns its first row's values, or errNoRow.
func (w *wconn) queryRow(q string, args ...any) ([]driver.Value, error) {
	var out []driver.Value
	err := w.query(q, args, func(row []driver.Value) error {
		out = append([]driver.Value(nil), row...)
		return io.EOF // stop after the first row
	})
	if errors.Is(err, io.EOF) {
		err = nil
	}
	if err == nil && out == nil {
		err = errNoRow
	}
	return out, err
}

// colText returns a TEXT column's value ("" for NULL).
func colText(v driver.Value) string {
	switch x := v.(type) {
	case string:
		return x
	case []byte:
		return string(x)
	}
	return ""
}

// colInt returns an INTEGER column's value (0 for NULL).
func colInt(v driver.Value) int64 {
	x, _ := v.(int64)
	return x
}
