package projections

import (
	"context"
	"fmt"
	"os"
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

// Rebuild replays the whole stream into a fresh database file next to path
// and swaps it in atomically with a rename: readers of path see the old
// models or the new ones, never a half-built file. The caller must not hold
// path open.
func Rebuild(ctx context.Context, src Replayer, path string) (RebuildStats, error) {
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
	return RebuildStats{Events: n, Duration: time.Since(start)}, nil
}

func build(ctx context.Context, src Replayer, path string) (uint64, error) {
	db, err := openDBSync(path, "OFF")
	if err != nil {
		return 0, err
	}
	s := &Store{db: db, path: path, changed: make(chan struct{})}
	batch := make([]events.Event, 0, BatchSize)
	var n uint64
	err = src.Replay(ctx, 1, func(ev events.Event) error {
		batch = append(batch, ev)
		n++
		if len(batch) == BatchSize {
			err := s.Apply(ctx, batch)
			batch = batch[:0]
			return err
		}
		return nil
	})
	if err == nil {
		err = s.Apply(ctx, batch)
	}
	if err == nil {
		_, err = db.ExecContext(ctx, "PRAGMA synchronous=FULL; PRAGMA wal_checkpoint(TRUNCATE)")
	}
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	return n, err
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
