package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
)

// A replica may start before its NATS cluster serves (after a full outage
// every node and replica comes back at once): streams and buckets have no
// leader yet, requests time out. The server then listens at once, says on
// /readyz what it waits for, and opens each stream and bucket again with a
// capped backoff until it answers; it never exits for that.

// Backoff between attempts to open a stream or bucket: it doubles from
// openFirstPause up to openMaxPause. A retry is logged at once the first
// time, then at most once every openLogEvery for the same thing.
const (
	openFirstPause = 250 * time.Millisecond
	openMaxPause   = 5 * time.Second
	openAttempt    = 15 * time.Second
	openLogEvery   = 10 * time.Second
)

// startup is a server's start: what it waits for, and the handler it
// serves once everything is open (the gate answers until then).
type startup struct {
	log     *slog.Logger
	mu      sync.Mutex
	waiting string // what the server waits for, with the last error
	handler atomic.Pointer[http.Handler]
}

func newStartup(log *slog.Logger) *startup { return &startup{log: log} }

// transient reports whether err may pass by waiting: anything the NATS
// cluster answers or fails to answer while it forms, but not a refused
// authorization. Settings are checked before anything is opened.
func transient(err error) bool {
	switch {
	case errors.Is(err, context.Canceled),
		errors.Is(err, nats.ErrAuthorization), errors.Is(err, nats.ErrAuthExpired), errors.Is(err, nats.ErrAuthRevoked):
		return false
	}
	return true
}

// open runs fn until it succeeds, ctx ends or it fails for good; what
// names the stream or bucket (for the log and /readyz). A nil startup (a
// command line's own store) tries once.
func open(ctx context.Context, st *startup, what string, fn func(context.Context) error) error {
	if st == nil {
		return fn(ctx)
	}
	began, pause := time.Now(), openFirstPause
	var logged time.Time
	for attempt := 1; ; attempt++ {
		actx, cancel := context.WithTimeout(ctx, openAttempt)
		err := fn(actx)
		cancel()
		if err == nil {
			if attempt > 1 {
				st.log.Info("NATS answered: opened", "what", what, "attempts", attempt, "waited", time.Since(began).Round(time.Millisecond))
			}
			st.wait("")
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if !transient(err) {
			return fmt.Errorf("%s: %w", what, err)
		}
		st.wait(fmt.Sprintf("%s: %v", what, err))
		if logged.IsZero() || time.Since(logged) >= openLogEvery {
			logged = time.Now()
			st.log.Warn("waiting for NATS: cannot open yet; retrying", "what", what, "attempt", attempt,
				"waited", time.Since(began).Round(time.Millisecond), "next_in", pause, "err", err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(pause):
		}
		pause = min(2*pause, openMaxPause)
	}
}

// opened is open for a step that returns what it opened.
func opened[T any](ctx context.Context, st *startup, what string, fn func(context.Context) (T, error)) (T, error) {
	var v T
	err := open(ctx, st, what, func(ctx context.Context) error {
		var err error
		v, err = fn(ctx)
		return err
	})
	return v, err
}

func (st *startup) wait(what string) {
	st.mu.Lock()
	st.waiting = what
	st.mu.Unlock()
}

// status says what the starting server does now.
func (st *startup) status() string {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.waiting == "" {
		return "starting: opening the event store and the read models"
	}
	return "waiting for NATS: " + st.waiting
}

// serve hands every request to h from now on.
func (st *startup) serve(h http.Handler) { st.handler.Store(&h) }

// ServeHTTP answers while the server starts: /healthz 200 (the process is
// alive; an orchestrator must not restart it for waiting), /readyz and
// everything else 503 saying what it waits for.
func (st *startup) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if h := st.handler.Load(); h != nil {
		(*h).ServeHTTP(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	switch r.URL.Path {
	case "/healthz":
		_, _ = w.Write([]byte("ok\n"))
		return
	case "/readyz":
		w.Header().Set("Retry-After", "5")
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte("not ready: " + st.status() + "\n"))
		return
	}
	w.Header().Set("Retry-After", "5")
	w.WriteHeader(http.StatusServiceUnavailable)
	// Both languages: no catalog is loaded before the server is built.
	msg := strings.Join([]string{
		"Crossrank is starting and will answer shortly.",
		"Crossrank 正在启动，稍后即可访问。",
		"", st.status(),
	}, "\n")
	_, _ = w.Write([]byte(msg + "\n"))
}
