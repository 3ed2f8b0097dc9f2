package projections

import (
	"database/sql/driver"
	"path/filepath"
	"strings"
	"testing"
)

// pipelinedConn opens a wconn on a new file with table t(k, v), pipelined.
func pipelinedConn(t *testing.T) *wconn {
	t.Helper()
	w, err := openWConn(rebuildDSN(filepath.Join(t.TempDir(), "p.db")))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.close() })
	if err := w.run("CREATE TABLE t(k INTEGER PRIMARY KEY, v BLOB NOT NULL)"); err != nil {
		t.Fatal(err)
	}
	w.pipelined()
	return w
}

// TestPipelineRunsInOrderWithOwnedArguments queues more statements than a
// batch holds, from one argument slice and one byte buffer the caller
// overwrites after every exec, and reads them back after the sync.
func TestPipelineRunsInOrderWithOwnedArguments(t *testing.T) {
	w := pipelinedConn(t)
	const n = 3*pipelineBatchStmts + 5
	args, buf := make([]any, 2), []byte("x")
	for i := range n {
		buf[0] = byte('a' + i%26)
		args[0], args[1] = i, buf
		if err := w.exec("INSERT INTO t VALUES (?,?)", args...); err != nil {
			t.Fatal(err)
		}
		// Later statements see the earlier ones: an update of the row
		// just inserted.
		if i%7 == 0 {
			if err := w.exec("UPDATE t SET v=v||'!' WHERE k=?", i); err != nil {
				t.Fatal(err)
			}
		}
		clear(args)
		buf[0] = '?'
	}
	var got []string
	err := w.query("SELECT k, v FROM t ORDER BY k", nil, func(row []driver.Value) error {
		got = append(got, colText(row[1]))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != n {
		t.Fatalf("got %d rows, want %d", len(got), n)
	}
	for i, v := range got {
		want := string(rune('a' + i%26))
		if i%7 == 0 {
			want += "!"
		}
		if v != want {
			t.Fatalf("row %d: got %q, want %q", i, v, want)
		}
	}
}

// TestPipelineErrorSurfaces: a queued statement that fails fails the next
// sync point and every one after it, and the statements behind it are not
// run.
func TestPipelineErrorSurfaces(t *testing.T) {
	for _, sync := range []string{"run", "queryRow", "close"} {
		t.Run(sync, func(t *testing.T) {
			w := pipelinedConn(t)
			if err := w.run("BEGIN"); err != nil {
				t.Fatal(err)
			}
			steps := []struct {
				k int
				v any
			}{{1, "a"}, {2, nil}, {3, "c"}} // v NOT NULL: the second fails
			for _, s := range steps {
				if err := w.exec("INSERT INTO t VALUES (?,?)", s.k, s.v); err != nil {
					t.Fatal(err) // queued: the error comes later
				}
			}
			var err error
			switch sync {
			case "run":
				err = w.run("COMMIT")
			case "queryRow":
				_, err = w.queryRow("SELECT count(*) FROM t")
			case "close":
				err = w.close()
			}
			if err == nil || !strings.Contains(err.Error(), "NOT NULL") {
				t.Fatalf("%s: got %v, want the NOT NULL failure", sync, err)
			}
			if sync == "close" {
				return
			}
			if err := w.exec("INSERT INTO t VALUES (?,?)", 4, "d"); err == nil {
				t.Fatal("exec after the failure: got nil, want the failure")
			}
			if err := w.unpipelined(); err == nil {
				t.Fatal("unpipelined: got nil, want the failure")
			}
			row, err := w.queryRow("SELECT group_concat(k) FROM t")
			if err != nil {
				t.Fatal(err)
			}
			if got := colText(row[0]); got != "1" {
				t.Errorf("rows after the failure: got %q, want %q", got, "1")
			}
		})
	}
}
