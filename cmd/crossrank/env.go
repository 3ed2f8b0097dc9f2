package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events/jetstream"
	"github.com/crossrank/crossrank/projections"
	"github.com/nats-io/nats.go"
)

// env is the running infrastructure: the event store (embedded or external
// NATS), the read models and the command handler (a server's, built by
// server.New, or a command line's own).
type env struct {
	events   *jetstream.Store
	nc       *nats.Conn
	server   *jetstream.Embedded // nil with --nats-url
	read     *projections.Store
	commands *handler.Handler
	readPath string
	data     string // the data folder, which keeps the signing key
	log      *slog.Logger
	lock     *folderLock // held while the embedded server runs on the folder
	// start is a starting server's: streams and buckets are opened again
	// until the NATS cluster answers (startup.go); nil for a command line,
	// which tries once.
	start *startup
	// served reports whether this is a running server's env lent to a
	// command sent over its control socket: its read models are open and
	// followed by the server's own runner.
	served bool
}

func (c *common) readPath() string { return filepath.Join(c.data, "read.db") }

// openEvents connects to the event store. With the embedded server it first
// takes the data folder's lock: a folder has one owner, and another
// process's lock comes back as a *busyError.
func (c *common) openEvents(ctx context.Context, log *slog.Logger) (*env, error) {
	return c.openEventsWaiting(ctx, log, nil)
}

// openEventsWaiting is openEvents for a starting server (st not nil): the
// connection to --nats-url and the stream are tried again until they
// answer.
func (c *common) openEventsWaiting(ctx context.Context, log *slog.Logger, st *startup) (*env, error) {
	if err := openDataFolder(c.data); err != nil {
		return nil, err
	}
	e := &env{log: log, readPath: c.readPath(), data: c.data, start: st}
	var err error
	if c.natsURL != "" {
		e.nc, err = opened(ctx, st, "a connection to "+c.natsURL, func(context.Context) (*nats.Conn, error) {
			return jetstream.Connect(c.natsURL, "crossrank")
		})
	} else {
		if e.lock, err = lockData(c.data); err != nil {
			return nil, err
		}
		e.server, err = jetstream.StartEmbedded(jetstream.EmbeddedOptions{Dir: filepath.Join(c.data, "nats"), Listen: c.natsListen, StorageLog: log})
		if err == nil {
			e.nc, err = e.server.Connect("crossrank")
		}
	}
	if err != nil {
		e.close()
		return nil, fmt.Errorf("event store: %w", err)
	}
	maxBatch := jetstream.EmbeddedMaxBatch
	var disk func() error // the embedded server's disk, named when full
	if c.natsURL != "" {
		maxBatch = c.natsMaxBatch
	} else {
		disk = e.server.WriteError
	}
	e.events, err = opened(ctx, st, "the stream "+jetstream.StreamName, func(ctx context.Context) (*jetstream.Store, error) {
		ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		return jetstream.Open(ctx, e.nc, jetstream.Config{Replicas: c.replicas, MaxBatch: maxBatch, Disk: disk})
	})
	if err != nil {
		e.close()
		return nil, fmt.Errorf("event store: %w", err)
	}
	return e, nil
}

// openRead opens the read models, rebuilding them from the stream when the
// file is missing, unreadable or ahead of the stream (a replaced stream).
func (e *env) openRead(ctx context.Context) error {
	last, err := opened(ctx, e.start, "the end of the stream "+jetstream.StreamName, e.events.LastSequence)
	if err != nil {
		return err
	}
	rs, err := projections.Open(e.readPath)
	if err == nil {
		if seq, _ := rs.Checkpoint(); seq <= last {
			if err = rs.Integrity(ctx); err == nil {
				e.read = rs
				return nil
			}
		} else {
			err = fmt.Errorf("read model at sequence %d is ahead of the stream (%d)", seq, last)
		}
		rs.Close()
	}
	e.log.Warn("rebuilding read models from the stream", "reason", err, "path", e.readPath)
	stats, rerr := projections.Rebuild(ctx, e.events, e.readPath)
	if rerr != nil {
		return fmt.Errorf("rebuild read models: %w", rerr)
	}
	e.log.Info("read models rebuilt", "events", stats.Events, "seconds", stats.Duration.Seconds())
	e.read, err = projections.Open(e.readPath)
	return err
}

func (e *env) close() {
	if e.read != nil {
		e.read.Close()
	}
	if e.nc != nil {
		e.nc.Drain()
		e.nc.Close()
	}
	if e.server != nil {
		e.server.Shutdown()
	}
	e.lock.release()
}

// follow brings the read models up to the end of the stream and keeps them
// following it until stop is called. A server's env is followed already.
func (e *env) follow(ctx context.Context) (stop func(), err error) {
	stop = func() {}
	if !e.served {
		if err := e.openRead(ctx); err != nil {
			return nil, err
		}
		runCtx, cancel := context.WithCancel(ctx)
		var wg sync.WaitGroup
		wg.Go(func() { e.read.Run(runCtx, e.events, e.log) })
		stop = func() { cancel(); wg.Wait() }
	}
	if err := e.caughtUp(ctx); err != nil {
		stop()
		return nil, err
	}
	return stop, nil
}

// caughtUp waits until the read models have applied every event the stream
// holds now: what a command just wrote is visible when it returns.
func (e *env) caughtUp(ctx context.Context) error {
	last, err := e.events.LastSequence(ctx)
	if err != nil {
		return err
	}
	return e.read.WaitFor(ctx, last)
}

func newLogger() *slog.Logger {
	level := slog.LevelInfo
	if os.Getenv("CROSSRANK_DEBUG") != "" {
		level = slog.LevelDebug
	}
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
}
