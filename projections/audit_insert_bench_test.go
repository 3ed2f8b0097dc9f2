package projections

import (
	"crypto/sha256"
	"database/sql/driver"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"
)

// BenchmarkAuditInsert compares three ways of writing audit rows (the
// migrated table, its indexes dropped as a rebuild drops them) in
// transactions of 5,000 rows: one statement per row with a bound value
// per column; multi-row VALUES with a bound value per column (64 rows a
// statement is what insertRows does; 256 and 1,000 beside it); and one
// JSON array of arrays bound for a chunk of 64 or 1,000 rows, spread into
// rows by SQLite's json_each, so that a chunk crosses from Go into C once
// instead of once per value. It reports rows/s, and rows per second of the
// process's CPU time, which a busy machine disturbs less. The JSON way
// lost (see BENCHMARKS.md): parsing the JSON and extracting each column
// costs SQLite more than the binds it saves, so it lives here, not in the
// projector.
//
//	go test -run '^$' -bench AuditInsert ./projections/
func BenchmarkAuditInsert(b *testing.B) {
	// The table each way wrote last, by b.N: the ways that wrote the same
	// number of rows must have written the same table.
	type sum struct {
		name string
		sum  [32]byte
	}
	sums := map[int]sum{}
	check := func(name string, n int, s [32]byte) {
		if o, ok := sums[n]; ok && o.sum != s {
			b.Errorf("%s and %s stored different rows", o.name, name)
		}
		sums[n] = sum{name, s}
	}
	for _, c := range []struct {
		name string
		rows int // a statement
		json bool
	}{
		{"row-binds", 1, false},
		{"values64-binds", 64, false},
		{"values256-binds", 256, false},
		{"values1000-binds", 1000, false},
		{"json64", 64, true},
		{"json1000", 1000, true},
	} {
		b.Run(c.name, func(b *testing.B) {
			w := benchAuditConn(b)
			const txRows = 5_000
			values := make([]any, 0, txRows*auditColumns)
			var buf []byte
			seq := 0
			b.ResetTimer()
			cpu := benchCPU()
			for seq < b.N {
				if err := w.run("BEGIN"); err != nil {
					b.Fatal(err)
				}
				values = values[:0]
				for i := 0; i < txRows && seq < b.N; i++ {
					seq++
					values = append(values, benchAuditRow(seq)...)
				}
				for len(values) > 0 {
					k := min(c.rows, len(values)/auditColumns)
					chunk := values[:k*auditColumns]
					var err error
					if c.json {
						var ok bool
						if buf, ok = appendJSONRows(buf[:0], auditColumns, chunk); !ok {
							b.Fatal("no JSON form")
						}
						err = w.exec(jsonInsertSQL(auditInto, auditColumns), string(buf))
					} else {
						err = w.exec(insertSQL(auditInto, auditColumns, k), chunk...)
					}
					if err != nil {
						b.Fatal(err)
					}
					values = values[k*auditColumns:]
				}
				if err := w.run("COMMIT"); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			check(c.name, b.N, benchTableSum(b, w, "SELECT * FROM audit ORDER BY seq"))
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rows/s")
			b.ReportMetric(float64(b.N)/(benchCPU()-cpu).Seconds(), "rows/cpu-s")
		})
	}
}

// benchAuditConn opens a write connection to a new migrated file the way
// a rebuild does, without the audit table's secondary indexes.
func benchAuditConn(b *testing.B) *wconn {
	path := filepath.Join(b.TempDir(), "read.db")
	db, err := openDSN(path, rebuildDSN(path))
	if err != nil {
		b.Fatal(err)
	}
	db.Close()
	w, err := openWConn(rebuildDSN(path))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { w.close() })
	if _, err := dropIndexes(w, []string{"audit_actor", "audit_entry", "audit_proposal", "audit_type"}); err != nil {
		b.Fatal(err)
	}
	return w
}

// benchAuditRow is an audit row of the sizes a generated history has.
func benchAuditRow(seq int) []any {
	p := fmt.Sprintf("p-%07d", seq/7)
	return []any{int64(seq), "2026-03-01T12:34:56.123456789Z", fmt.Sprintf("user-%03d", seq%300), "proposal", p,
		"crossrank.proposal.vote_cast.v1", fmt.Sprintf("01J%023d", seq),
		"vote_cast", `{"verdict":"approve","revision":` + strconv.Itoa(seq%5+1) + `}`,
		"in_review", "in_review", "llm", "qwen-3", p, fmt.Sprintf("%064x", seq*2654435761), ""}
}

// benchTableSum is the SHA-256 of the rows q reads, each value with its
// type.
func benchTableSum(b *testing.B, w *wconn, q string) [32]byte {
	h := sha256.New()
	err := w.query(q, nil, func(row []driver.Value) error {
		for _, v := range row {
			fmt.Fprintf(h, "%T:%q;", v, v)
		}
		h.Write([]byte{'\n'})
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return [32]byte(h.Sum(nil))
}

func benchCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// Inserting rows through one JSON array: the rows of a chunk become one
// JSON array of arrays, built in Go, bound as one text value and spread
// into rows by SQLite. The rows stored are the same (the benchmark checks):
// JSON numbers come back as INTEGERs, strings as TEXT and null as NULL.
// Values JSON cannot carry exactly (BLOBs, floats, strings that are not
// valid UTF-8 or hold a NUL) make appendJSONRows refuse.

// appendJSONRows appends values, columns to a row, to buf as a JSON array
// of arrays; ok is false when a value has no exact JSON form.
func appendJSONRows(buf []byte, columns int, values []any) (_ []byte, ok bool) {
	buf = append(buf, '[')
	for i, v := range values {
		switch {
		case i == 0:
			buf = append(buf, '[')
		case i%columns == 0:
			buf = append(buf, "],["...)
		default:
			buf = append(buf, ',')
		}
		switch x := v.(type) {
		case nil:
			buf = append(buf, "null"...)
		case string:
			if buf, ok = appendJSONString(buf, x); !ok {
				return buf, false
			}
		case int64:
			buf = strconv.AppendInt(buf, x, 10)
		case int:
			buf = strconv.AppendInt(buf, int64(x), 10)
		case int32:
			buf = strconv.AppendInt(buf, int64(x), 10)
		case uint64:
			buf = strconv.AppendInt(buf, int64(x), 10) // bound as int64 too
		case bool:
			// A bound bool is stored as the integer 1 or 0; JSON true
			// would come back as 1 as well, but say it as SQLite stores it.
			if x {
				buf = append(buf, '1')
			} else {
				buf = append(buf, '0')
			}
		default:
			return buf, false
		}
	}
	if len(values) > 0 {
		buf = append(buf, ']')
	}
	return append(buf, ']'), true
}

// appendJSONString appends s quoted as a JSON string: quotes, backslashes
// and control characters escaped, everything else as it is (SQLite reads
// UTF-8 in JSON text as it stands).
func appendJSONString(buf []byte, s string) ([]byte, bool) {
	if strings.IndexByte(s, 0) >= 0 || !utf8.ValidString(s) {
		return buf, false
	}
	buf = append(buf, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		buf = append(buf, s[start:i]...)
		switch c {
		case '"', '\\':
			buf = append(buf, '\\', c)
		case '\n':
			buf = append(buf, '\\', 'n')
		case '\t':
			buf = append(buf, '\\', 't')
		case '\r':
			buf = append(buf, '\\', 'r')
		default:
			const hex = "0123456789abcdef"
			buf = append(buf, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		}
		start = i + 1
	}
	buf = append(buf, s[start:]...)
	return append(buf, '"'), true
}

// jsonInsertSQL is the statement that inserts the rows of one JSON array
// of arrays into into ("table(col, …)"). Each row is made JSONB once
// (MATERIALIZED) before its columns are taken out: with value->>N straight
// off json_each's text, SQLite parsed the row's text again for each column
// and the way ran at half the rate of the binds; json_extract did no better.
func jsonInsertSQL(into string, columns int) string {
	var b strings.Builder
	b.WriteString("WITH r(v) AS MATERIALIZED (SELECT jsonb(value) FROM json_each(?)) INSERT INTO " + into + " SELECT ")
	for i := range columns {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("v->>" + strconv.Itoa(i))
	}
	b.WriteString(" FROM r")
	return b.String()
}
