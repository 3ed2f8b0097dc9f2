package jetstream

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/crossrank/crossrank/events"
	"github.com/nats-io/nats-server/v2/server"
)

// A stream whose file store fails to write (a full disk: ENOSPC) keeps the
// error for good: nats-server 2.15 stores it in the file store and the
// stream (filestore.go setWriteErr, stream.go setWriteErrLocked), refuses
// every later write with it and answers none of them, so each publish
// times out. Nothing clears it but reloading the stream. The embedded
// server therefore watches its streams' health: while one cannot write it
// says so, naming the disk (StorageError), and once the disk takes a test
// write again it restarts JetStream, which reloads the streams from disk
// without the error; clients stay connected.

// Storage watch timing: how often the server's health is read, and how
// long a reading is reused by StorageError.
const (
	storageWatchEvery = time.Second
	storageFresh      = 200 * time.Millisecond
	// storageProbeBytes is written and synced to test that the disk has
	// room again before JetStream is restarted.
	storageProbeBytes = 1 << 20
	// storageFullBelow: a disk with less free is full before any write
	// fails on it.
	storageFullBelow = 64 << 10
)

// storageWatch is an embedded server's view of its disk.
type storageWatch struct {
	e       *Embedded
	dir     string // the JetStream directory
	log     *slog.Logger
	stop    chan struct{}
	done    chan struct{}
	closing sync.Once

	mu      sync.Mutex
	err     error
	werr    bool // err is a stream's write error, not only a full disk
	checked time.Time
}

func (e *Embedded) watchStorage(dir string, log *slog.Logger) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	w := &storageWatch{e: e, dir: dir, log: log, stop: make(chan struct{}), done: make(chan struct{})}
	e.storage = w
	go w.run()
}

// StorageError reports why the server cannot store writes now, naming the
// disk (an *events.StorageFullError when it is full): a stream that failed
// to write, or a disk with (almost) no room left; nil when it can.
func (e *Embedded) StorageError() error {
	if e.storage == nil {
		return nil
	}
	err, _ := e.storage.current()
	return err
}

// WriteError is StorageError when a stream holds a write error, which
// refuses every write sent to it until the disk has room again (and the
// watch restarts JetStream); nil otherwise, even on a full disk: a write
// may still fit, and if it does not, the stream says so.
func (e *Embedded) WriteError() error {
	if e.storage == nil {
		return nil
	}
	if err, werr := e.storage.current(); werr {
		return err
	}
	return nil
}

func (w *storageWatch) current() (error, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if time.Since(w.checked) > storageFresh {
		w.err, w.werr = w.check()
		w.checked = time.Now()
	}
	return w.err, w.werr
}

// check reads the server's health: a stream with a write error, or a
// disk with no room left at all.
func (w *storageWatch) check() (err error, werr bool) {
	free, known := freeBytes(w.dir)
	h := w.e.srv.Healthz(&server.HealthzOptions{})
	if h == nil || !strings.Contains(h.Error, "write error") {
		if known && free < storageFullBelow {
			return &events.StorageFullError{Path: w.dir, Free: free, Err: errors.New("no space left on device")}, false
		}
		return nil, false
	}
	cause := errors.New(h.Error)
	if strings.Contains(h.Error, "no space left") || strings.Contains(h.Error, "quota exceeded") {
		return &events.StorageFullError{Path: w.dir, Free: free, Err: cause}, true
	}
	return fmt.Errorf("%w: the store in %s cannot write: %v", events.ErrUnavailable, w.dir, cause), true
}

func (w *storageWatch) run() {
	defer close(w.done)
	t := time.NewTicker(storageWatchEvery)
	defer t.Stop()
	var failing error
	for {
		select {
		case <-w.stop:
			return
		case <-t.C:
		}
		err, werr := w.current()
		switch {
		case err != nil && failing == nil:
			w.log.Error("event store cannot write", "err", err)
		case err == nil && failing != nil:
			w.log.Info("event store writes again", "dir", w.dir)
		}
		failing = err
		if !werr {
			continue
		}
		if perr := w.probe(); perr != nil {
			continue // still no room
		}
		w.log.Warn("the disk has room again: restarting JetStream to clear its write error", "dir", w.dir)
		if rerr := w.e.restartJetStream(); rerr != nil {
			w.log.Error("restarting JetStream failed; trying again", "err", rerr)
		}
		w.mu.Lock()
		w.checked = time.Time{}
		w.mu.Unlock()
	}
}

// probe writes and syncs storageProbeBytes beside the store and removes
// them: the disk has room for JetStream's next block.
func (w *storageWatch) probe() error {
	f, err := os.CreateTemp(w.dir, ".crossrank-space-probe-")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	defer f.Close()
	if _, err := f.Write(make([]byte, storageProbeBytes)); err != nil {
		return err
	}
	return f.Sync()
}

// close stops the watch; a second call (Shutdown called twice) does
// nothing.
func (w *storageWatch) close() {
	w.closing.Do(func() { close(w.stop) })
	<-w.done
}

// restartJetStream stops JetStream and starts it again with the settings
// it started with (as nats-server's config reload does), reloading every
// stream from disk.
func (e *Embedded) restartJetStream() error {
	if err := e.srv.ShutdownJetStream(); err != nil {
		return err
	}
	o := e.opts
	return e.srv.EnableJetStream(&server.JetStreamConfig{
		StoreDir: o.StoreDir, SyncInterval: o.SyncInterval, SyncAlways: o.SyncAlways, Strict: !o.NoJetStreamStrict,
		MaxMemory: o.JetStreamMaxMemory, MaxStore: o.JetStreamMaxStore, Domain: o.JetStreamDomain, CompressOK: true,
	})
}
