package projections

import (
	"context"
	"fmt"
	"math"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"time"

	"github.com/crossrank/crossrank/events"
)

// Replayer replays the stream from a sequence to its current end.
type Replayer interface {
	Replay(ctx context.Context, from uint64, fn func(events.Event) error) error
}

// RebuildStats reports a rebuild.
type RebuildStats struct {
	Events   uint64
	Duration time.Duration
}

// Rate returns events per second.
func (r RebuildStats) Rate() float64 {
	if r.Duration <= 0 {
		return 0
	}
	return float64(r.Events) / r.Duration.Seconds()
}

// rebuildTxEvents is about how many events one transaction of a rebuild
// applies, in batches of rebuildBatch (variables for the package's tests,
// which make them small). A transaction keeps every state it changed
// alive until it commits: at 20,000 events the 1M rebuild's live heap
// reached the memory limit below and the collector ran without pause
// (VmHWM 256–266 MiB, 20k events/s); at 5,000 it peaks at 237–244 MiB and
// runs at 23–27k events/s. The 100k rebuild is as fast at 2,000–20,000
// (2.53–2.71 s).
var (
	rebuildTxEvents uint64 = 5_000
	rebuildBatch           = BatchSize
)

// rebuildMemoryLimit is how far above the heap live when it starts a
// rebuild may grow under the soft memory limit (runtime/debug) it sets,
// unless the process has one or GOMEMLIMIT is set (to anything, "off"
// included). A rebuild keeps 150–190 MiB alive for a million events,
// most of it the embedded nats-server's subject indexes (the stream's, and
// each block's, built as the replay reads it and kept two minutes), but decodes
// a million events' worth of garbage, and the heap grew to twice what is
// live between collections: 417 MiB resident at the peak. Under the limit
// it peaks at 235 MiB, for about a quarter more time.
//
// The limit is over what was live before, not absolute: a process that
// holds more than it already (a server rebuilding lost read models beside
// its caches, a test beside a 10,000-entry dataset) would otherwise run
// the collector without pause, at the runtime's cap of half the CPU. A
// 10,000-entry ranking's first edition (170,047 events) rebuilt beside
// its dataset in 14.8 s and 18.8 core-seconds under an absolute limit,
// 9.6–9.9 s and 13.5 without one.
const rebuildMemoryLimit = 200 << 20

// liveHeap is the heap the last collection found live (runtime/metrics).
func liveHeap() int64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(s[0].Value.Uint64())
}

// Rebuild replays the whole stream into a fresh database file next to path
// and swaps it in atomically with a rename: readers of path see the old
// models or the new ones, never a half-built file. The caller must not hold
// path open.
func Rebuild(ctx context.Context, src Replayer, path string) (RebuildStats, error) {
	if os.Getenv("GOMEMLIMIT") == "" && debug.SetMemoryLimit(-1) == math.MaxInt64 {
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(liveHeap() + rebuildMemoryLimit))
	}
	start := time.Now()
	tmp := fmt.Sprintf("%s.rebuild-%d", path, os.Getpid())
	removeDB(tmp)
	n, err := build(ctx, src, tmp)
	if err != nil {
		removeDB(tmp)
		return RebuildStats{}, err
	}
	removeDB(path + "-wal")
	os.Remove(path + "-shm")
	if err := os.Rename(tmp, path); err != nil {
		removeDB(tmp)
		return RebuildStats{}, err
	}
	if d, err := os.Open(dirOf(path)); err == nil {
		d.Sync() // make the rename durable
		d.Close()
	}
	putCleanMark(path) // built whole and closed just now: no need to check it on open
	return RebuildStats{Events: n, Duration: time.Since(start)}, nil
}

// build replays the stream into a new database at path. Reading and
// decoding run on their own goroutine, a batch ahead of the projection.
func build(ctx context.Context, src Replayer, path string) (uint64, error) {
	db, err := openDSN(path, rebuildDSN(path)) // creates and migrates the file
	if err != nil {
		return 0, err
	}
	if err := db.Close(); err != nil {
		return 0, err
	}
	w, err := openWConn(rebuildDSN(path))
	if err != nil {
		return 0, err
	}
	defer w.close()
	indexes, err := dropIndexes(w, deferredIndexes)
	if err != nil {
		return 0, err
	}
	// The projection builds rows on this goroutine while another runs the
	// statements: see pipeline.
	// The file is new: its states are those this Store writes.
	empty, err := emptyStates(w)
	if err != nil {
		return 0, err
	}
	w.pipelined()
	s := &Store{w: w, path: path, changed: make(chan struct{}), deferSearch: true}
	if empty {
		s.news = newNewStates()
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// The reading goroutine also computes the audit chain, which depends
	// on nothing but the events.
	type batch struct {
		evs   []events.Event
		heads []string
	}
	batches := make(chan batch, 1)
	replayed := make(chan error, 1)
	go func() {
		defer close(batches)
		newBatch := func() batch {
			return batch{evs: make([]events.Event, 0, rebuildBatch), heads: make([]string, 0, rebuildBatch)}
		}
		b := newBatch()
		var chain events.Chainer
		head := ""
		send := func() error {
			select {
			case batches <- b:
				b = newBatch()
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		err := src.Replay(ctx, 1, func(ev events.Event) error {
			head = chain.Next(head, ev)
			b.evs, b.heads = append(b.evs, ev), append(b.heads, head)
			if len(b.evs) == rebuildBatch {
				return send()
			}
			return nil
		})
		if err == nil && len(b.evs) > 0 {
			err = send()
		}
		replayed <- err
	}()
	// Batches go into transactions of about rebuildTxEvents events: the
	// dirty states and summary rows are written once per transaction, and
	// a proposal changes many times within one.
	var n uint64
	var t *txn
	s.applying.Lock()
	defer s.applying.Unlock()
	for b := range batches {
		if err != nil {
			continue // drain what the replay already sent
		}
		if t == nil {
			t, err = s.begin(ctx)
		}
		if err == nil {
			err = t.add(ctx, b.evs, b.heads)
		}
		if err == nil && t.p.seq-t.seq >= rebuildTxEvents {
			err = s.commit(ctx, t)
			t = nil
		}
		if err != nil {
			cancel() // stop the replay
		}
		n += uint64(len(b.evs))
	}
	if t != nil {
		if err == nil {
			err = s.commit(ctx, t)
		}
		t.rollback()
	}
	if rerr := <-replayed; err == nil {
		err = rerr
	}
	if err == nil {
		// The states the load kept are not needed any more; the search
		// index's passes use the memory instead.
		s.memo, s.news = nil, nil
		err = indexAllSearch(w)
	}
	for _, q := range indexes {
		if err == nil {
			err = w.run(q)
		}
	}
	if err == nil {
		// WAL is a property of the file: every later Open finds it on.
		err = w.run("PRAGMA journal_mode=WAL")
	}
	if cerr := w.close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = syncFile(path) // nothing was synced while building
	}
	return n, err
}

// deferredIndexes are the secondary indexes a rebuild creates after the
// load rather than keeping them up to date row by row: nothing reads the
// models during a rebuild, and the projector's own reads never go through
// these (it reads proposals by proposals_status and votes by
// votes_proposal, which stay). A new index is kept up to date during the
// rebuild until it is named here: slower, never wrong.
var deferredIndexes = []string{
	"audit_actor", "audit_entry", "audit_proposal", "audit_type",
	"evidence_stale",
	"proposal_reviewers_reviewer",
	"proposals_author", "proposals_entry", "proposals_kind",
	"votes_voter",
}

// dropIndexes drops the named indexes and returns the statements that
// create them again, exactly as the schema has them.
func dropIndexes(w *wconn, names []string) ([]string, error) {
	var create []string
	for _, name := range names {
		row, err := w.queryRow("SELECT sql FROM sqlite_master WHERE type='index' AND name=? AND sql IS NOT NULL", name)
		if err != nil {
			return nil, fmt.Errorf("projections: index %s: %w", name, err)
		}
		create = append(create, colText(row[0]))
		if err := w.run(`DROP INDEX "` + name + `"`); err != nil {
			return nil, err
		}
	}
	return create, nil
}

func syncFile(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func removeDB(path string) {
	os.Remove(path)
	os.Remove(path + "-wal")
	os.Remove(path + "-shm")
	os.Remove(path + "-journal")
}

func dirOf(path string) string {
	for i := len(path) - 1; i >= 0; i-- {
		if path[i] == '/' {
			return path[:i+1]
		}
	}
	return "."
}
