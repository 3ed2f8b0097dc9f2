package projections

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// Store is the read-model database and the position of the projection in
// the event stream.
type Store struct {
	db   *sql.DB // readers (and migrations)
	w    *wconn  // the projection's writes, under applying
	path string

	applying sync.Mutex // held by Apply
	memo     *memo      // as of seq; nil: load from the tables
	news     *newStates // a rebuild's, see newStates; nil: any state may be in the table
	// deferSearch: a rebuild indexes search after the load (see
	// indexAllSearch), not at every commit.
	deferSearch bool

	stability stabilityMemo                 // Stability's answers, per ranking and edition
	lists     editionMemo[publishedLists]   // Standing's lists, per ranking and edition
	overviews editionMemo[EditionOverview]  // EditionOverview's answers, per ranking and edition
	snapshots editionMemo[*domain.Snapshot] // PublishedSnapshot's, a few: 10,000 entries decode to ~10 MB
	scans     positionCache                 // answers that cost a scan, at the current position

	clean    bool // the file is as a clean Close left it (see clean.go)
	verified bool // clean, or Integrity passed: Close may mark the file

	mu      sync.Mutex
	seq     uint64 // last applied stream sequence (== checkpoint row)
	head    string // audit chain head after seq
	changed chan struct{}
	applied time.Time // when the last batch was committed
}

// Open opens or creates the read models at path.
func Open(path string) (*Store, error) {
	clean := takeCleanMark(path)
	db, err := openDB(path)
	if err != nil {
		return nil, err
	}
	w, err := openWConn(liveDSN(path))
	if err != nil {
		db.Close()
		return nil, err
	}
	s := &Store{db: db, w: w, path: path, changed: make(chan struct{}), clean: clean}
	s.snapshots.max = snapshotMemoSize
	if err := db.QueryRow("SELECT seq, audit_head FROM checkpoint WHERE id=1").Scan(&s.seq, &s.head); err != nil {
		s.w.close()
		db.Close()
		return nil, fmt.Errorf("projections: read checkpoint of %s: %w", path, err)
	}
	if err := s.indexMigrated(); err != nil {
		s.w.close()
		db.Close()
		return nil, fmt.Errorf("projections: search index of %s: %w", path, err)
	}
	return s, nil
}

// indexMigrated indexes the documents a migration marked for search (the
// rows projected before the index existed); usually there are none.
func (s *Store) indexMigrated() error {
	row, err := s.w.queryRow("SELECT EXISTS (SELECT 1 FROM search_dirty)")
	if err != nil || colInt(row[0]) == 0 {
		return err
	}
	if err := s.w.run("BEGIN IMMEDIATE"); err != nil {
		return err
	}
	if err := (&projector{w: s.w}).indexSearch(); err != nil {
		s.w.run("ROLLBACK")
		return err
	}
	return s.w.run("COMMIT")
}

// Close closes the database; a file that passed Integrity is marked as
// closed cleanly, so that the next Open need not check it again.
func (s *Store) Close() error {
	s.applying.Lock()
	werr := s.w.close()
	s.applying.Unlock()
	if err := s.db.Close(); err != nil {
		return err
	}
	if werr != nil {
		return werr
	}
	if s.verified && s.path != "" {
		putCleanMark(s.path)
	}
	return nil
}

// DB returns the database for read queries and dumps.
func (s *Store) DB() *sql.DB { return s.db }

// Path returns the database file.
func (s *Store) Path() string { return s.path }

// Checkpoint returns the last applied sequence and the audit chain head after it.
func (s *Store) Checkpoint() (uint64, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.seq, s.head
}

// AuditHead returns the audit chain head and its sequence (for publishing).
func (s *Store) AuditHead(context.Context) (string, uint64, error) {
	seq, head := s.Checkpoint()
	return head, seq, nil
}

// Apply projects evs in one transaction together with the new checkpoint.
// Events at or below the checkpoint are skipped (redelivery changes
// nothing); an event that does not follow the checkpoint returns ErrGap and
// nothing of the batch is kept. Calls are serialised.
func (s *Store) Apply(ctx context.Context, evs []events.Event) error { return s.apply(ctx, evs, nil) }

// apply is Apply, given the audit chain head after each event when the
// caller has computed them already (heads[i] after evs[i]; a rebuild does
// it on the goroutine that reads the stream). nil: compute them here.
func (s *Store) apply(ctx context.Context, evs []events.Event, heads []string) error {
	s.applying.Lock()
	defer s.applying.Unlock()
	seq, _ := s.Checkpoint()
	if !slices.ContainsFunc(evs, func(e events.Event) bool { return e.Sequence > seq }) {
		return nil
	}
	t, err := s.begin(ctx)
	if err != nil {
		return err
	}
	defer t.rollback()
	if err := t.add(ctx, evs, heads); err != nil {
		return err
	}
	return s.commit(ctx, t)
}

// txn is one transaction of the projection: a projector over the memo,
// from the checkpoint it started at. A rebuild adds many batches to one.
type txn struct {
	w    *wconn
	p    *projector
	memo *memo
	seq  uint64 // checkpoint when the transaction began
	done bool   // committed or rolled back
}

// begin starts a transaction at the checkpoint. The caller holds s.applying.
func (s *Store) begin(context.Context) (*txn, error) {
	if err := s.w.run("BEGIN IMMEDIATE"); err != nil {
		return nil, err
	}
	t := &txn{w: s.w}
	// Read the checkpoint again inside the (immediate) transaction: another
	// process on the same file may have moved it, and then the memo is
	// stale too.
	row, err := s.w.queryRow("SELECT seq, audit_head FROM checkpoint WHERE id=1")
	if err != nil {
		t.rollback()
		return nil, err
	}
	t.seq = uint64(colInt(row[0]))
	memo := s.memo
	s.memo = nil // evolved in place: kept again only if the transaction commits
	if memo == nil || t.seq != s.seq {
		memo = newMemo()
	}
	t.memo, t.p = memo, newProjector(s.w, memo, t.seq, colText(row[1]), s.news)
	t.p.deferSearch = s.deferSearch
	return t, nil
}

// add projects evs (heads as in apply) and writes their audit rows.
func (t *txn) add(ctx context.Context, evs []events.Event, heads []string) error {
	p := t.p
	for i, ev := range evs {
		if err := ctx.Err(); err != nil {
			return err
		}
		if ev.Sequence <= p.seq {
			continue
		}
		head := ""
		if heads != nil {
			head = heads[i]
		}
		if err := p.apply(ev, head); err != nil {
			return err
		}
	}
	return p.flushAudit()
}

// rollback ends the transaction unless it has ended already.
func (t *txn) rollback() {
	if !t.done {
		t.done = true
		t.w.run("ROLLBACK")
	}
}

// commit writes what the transaction keeps in memory (dirty states, summary
// rows) and the checkpoint, commits, and publishes the new checkpoint.
func (s *Store) commit(ctx context.Context, t *txn) error {
	p, memo := t.p, t.memo
	if p.seq > t.seq {
		if err := p.flush(); err != nil {
			return err
		}
		if err := t.w.exec("UPDATE checkpoint SET seq=?, audit_head=? WHERE id=1", p.seq, p.head); err != nil {
			return err
		}
		if err := t.w.run("COMMIT"); err != nil {
			return err
		}
		t.done = true
	}
	if len(memo.states) > maxCachedStates {
		memo.states = keptStates(memo.states, p.used)
	}
	s.memo = memo
	s.mu.Lock()
	s.seq, s.head, s.applied = p.seq, p.head, time.Now()
	close(s.changed)
	s.changed = make(chan struct{})
	s.mu.Unlock()
	return nil
}

// keptStates are the states kept past maxCachedStates: those the last
// transaction used (the next ones touch mostly the same aggregates), as
// many as the bound allows. Past it, only those of other kinds than
// proposals are kept (the rankings, editions and entries the next
// transaction will read again; a handful): an edition of 8,000 proposals
// used them all, and keeping them held 24 MiB after the publish (the
// bench's desk part at 10,000 entries).
func keptStates(states map[events.Aggregate]any, used map[events.Aggregate]bool) map[events.Aggregate]any {
	kept := make(map[events.Aggregate]any, min(len(used), maxCachedStates))
	for a := range used {
		if len(kept) < maxCachedStates || a.Kind != events.KindProposal {
			kept[a] = states[a]
		}
	}
	return kept
}

// maxCachedStates bounds the aggregate states kept in memory between
// transactions; past it only those the last transaction used are kept, the
// others are loaded from the states table again when needed. A state is a
// few KB (a proposal with its evidence and votes): 20,000 of them made a
// rebuild of a million events peak at 630 MiB, 4,000 at 400 MiB (268 MiB
// under the rebuild's memory limit, with transactions of 20,000 events),
// 1,000 at 244 MiB, as fast: a rebuild's transaction keeps what it uses
// anyway. (A variable for the package's tests, which make it small.)
var maxCachedStates = 1_000

// ErrWaitTimeout means the projection did not reach the sequence in time.
var ErrWaitTimeout = errors.New("projections: read model is behind; the change is saved and will appear shortly")

// WaitFor blocks until the projection has applied seq (read-your-writes),
// until ctx ends, or for at most 5 seconds.
func (s *Store) WaitFor(ctx context.Context, seq uint64) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	for {
		s.mu.Lock()
		done, ch := s.seq >= seq, s.changed
		s.mu.Unlock()
		if done {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return ErrWaitTimeout
		}
	}
}

// Changed returns a channel closed at the next commit.
func (s *Store) Changed() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.changed
}

// Integrity runs SQLite's quick check; a corrupted file returns an error and
// the caller rebuilds it from the stream. A file exactly as a clean Close
// of a checked file left it is trusted without the check (see clean.go).
func (s *Store) Integrity(ctx context.Context) error {
	if s.clean {
		s.verified = true
		return nil
	}
	rows, err := s.db.QueryContext(ctx, "PRAGMA quick_check")
	if err != nil {
		return err
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var res string
		if err := rows.Scan(&res); err != nil {
			return err
		}
		if res != "ok" && !searchIndexNote(res) {
			problems = append(problems, res)
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if len(problems) > 0 {
		return fmt.Errorf("projections: %s: %s", s.path, strings.Join(problems, "; "))
	}
	s.verified = true
	return nil
}

// searchIndexNote reports whether a line of SQLite's quick check is its
// check of a full-text index (migration 026) against its content table.
// The three indexes share search_docs, each holding the rows of one kind,
// so the check, which compares each index with every row of search_docs,
// finds each "malformed" in every file; it made every start after an
// unclean stop (a crash, or `crossrank verify` on a stopped folder)
// rebuild the read models. The indexes are built from search_docs, which
// verify compares row by row, and a rebuild writes them afresh.
func searchIndexNote(line string) bool {
	return strings.HasPrefix(line, "malformed inverted index for FTS4 table main.search_fts_")
}
