// Package projections keeps Crossrank's SQLite read models: the published
// ranking, the review desk, editions with their diffs and the hash-chained
// audit trail. Every row derives from the event stream; the last applied
// stream sequence is written in the same transaction as the rows, so a
// crash never applies an event twice or skips one.
package projections

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/mattn/go-sqlite3" // the SQLite driver, registered as "sqlite3"
)

//go:embed migrations/*.sql
var migrations embed.FS

// openDB opens (creating) the SQLite file at path for reading and
// migrates it.
func openDB(path string) (*sql.DB, error) {
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		// Create it without WAL first: once a file is in WAL mode its page
		// size is fixed, and openDSN gives new files larger pages.
		db, err := openDSN(path, "file:"+path+"?_foreign_keys=on")
		if err != nil {
			return nil, err
		}
		if err := db.Close(); err != nil {
			return nil, err
		}
	}
	db, err := openDSN(path, liveDSN(path))
	if err != nil {
		return nil, err
	}
	limitPool(db)
	return db, nil
}

// readConns is the most connections the read models' pool opens. Each
// holds its own page cache (SQLite's default, 2 MB) and parsed schema,
// outside the Go heap: unbounded, 100 readers opened 100 of them and the
// process kept their memory. Reads are short and use the CPU, so a few per
// core serve as many requests; a request past them waits for one.
func readConns() int { return max(8, 4*runtime.GOMAXPROCS(0)) }

// limitPool bounds the pool, keeps its connections open while they are in
// use (database/sql keeps 2 idle by default: under load the others were
// opened and closed again request after request, parsing the schema each
// time) and closes those idle for a minute, returning their caches.
func limitPool(db *sql.DB) {
	n := readConns()
	db.SetMaxOpenConns(n)
	db.SetMaxIdleConns(n)
	db.SetConnMaxIdleTime(time.Minute)
}

// liveDSN: WAL, immediate transactions, a busy timeout and foreign keys.
// synchronous=NORMAL in WAL mode keeps every commit atomic and durable up
// to the last checkpoint, and is safe because the stream, not SQLite, is
// the record.
func liveDSN(path string) string {
	return "file:" + path + "?_journal_mode=WAL&_txlock=immediate&_busy_timeout=5000&_foreign_keys=on&_synchronous=NORMAL"
}

// rebuildDSN is for a new file being rebuilt: one connection holding an
// exclusive lock, no rollback journal, no syncs and no foreign key checks
// (the rows derive from the stream, which the live projection checked). A
// rebuild that fails or crashes throws the file away, so it needs neither;
// the rebuild turns WAL on and makes the finished file durable at the end.
// (A larger page cache made no difference: 100k events in 6.8–7.3 s with
// SQLite's 2 MiB and with 128 MiB.)
func rebuildDSN(path string) string {
	return "file:" + path + "?_journal_mode=OFF&_locking_mode=EXCLUSIVE&_foreign_keys=off&_synchronous=OFF"
}

func openDSN(path, dsn string) (*sql.DB, error) {
	db, err := sql.Open("sqlite3", dsn)
	if err != nil {
		return nil, err
	}
	// A new file gets 16 KiB pages (SQLite's default is 4 KiB): the models
	// are written in long runs of rows, and a rebuild of the 100k history
	// took 6.8–7.1 s instead of 7.6–7.8 s. It only applies before the first
	// table exists; an existing file keeps its pages.
	if _, err := db.Exec("PRAGMA page_size = 16384"); err != nil {
		db.Close()
		return nil, err
	}
	if err := migrate(context.Background(), db); err != nil {
		db.Close()
		return nil, fmt.Errorf("projections: migrate %s: %w", path, err)
	}
	return db, nil
}

func migrate(ctx context.Context, db *sql.DB) error {
	var version int
	if err := db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return err
	}
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return err
	}
	sort.Strings(names)
	if version >= len(names) {
		return nil
	}
	// Every pending migration in one transaction: a new file takes all of
	// them, and a commit each cost it more than the statements (62 → 26 ms
	// to create one); a file either is at the new version or is left as it
	// was.
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for i, name := range names[version:] {
		body, err := migrations.ReadFile(name)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, string(body)); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if step := migrationSteps[name]; step != nil {
			if err := step(ctx, tx); err != nil {
				return fmt.Errorf("%s, its Go step: %w", name, err)
			}
		}
		if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", version+i+1)); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// tables lists the read-model tables in a fixed order (for dumps and
// verify). The full-text index's tables (search_fts_*, see migration 026)
// are left out: how FTS splits its terms into segments depends on the
// order of its merges, not on the model; search_docs, which it indexes,
// is compared.
func tables(ctx context.Context, db *sql.DB) ([]string, error) {
	rows, err := db.QueryContext(ctx, `SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'search\_fts\_%' ESCAPE '\' ORDER BY name`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, rows.Err()
}

// tableRows is what to select a table's rows from.
func tableRows(table string) string { return quoteName(table) }

// Dump writes every table's rows in primary-key order as text: two read
// models with the same Dump hold the same data.
func Dump(ctx context.Context, db *sql.DB) (string, error) {
	names, err := tables(ctx, db)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, t := range names {
		fmt.Fprintf(&b, "== %s\n", t)
		rows, err := db.QueryContext(ctx, "SELECT * FROM "+tableRows(t)+" ORDER BY 1, 2, 3")
		if err != nil {
			// tables with fewer than three columns
			rows, err = db.QueryContext(ctx, "SELECT * FROM "+tableRows(t)+" ORDER BY 1")
			if err != nil {
				return "", err
			}
		}
		cols, _ := rows.Columns()
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		for rows.Next() {
			if err := rows.Scan(ptrs...); err != nil {
				rows.Close()
				return "", err
			}
			for i, v := range vals {
				if i > 0 {
					b.WriteByte('|')
				}
				switch x := v.(type) {
				case nil:
					b.WriteString("NULL")
				case []byte:
					fmt.Fprintf(&b, "%q", x)
				default:
					fmt.Fprintf(&b, "%v", x)
				}
			}
			b.WriteByte('\n')
		}
		rows.Close()
	}
	return b.String(), nil
}

// SQLiteVersion is the version of the SQLite library linked in.
func SQLiteVersion() string {
	v, _, _ := sqlite3.Version()
	return v
}
