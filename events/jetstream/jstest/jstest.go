// Package jstest starts a real embedded JetStream event store for tests in
// other packages: no mocks, a fresh directory per test, torn down at the end.
package jstest

import (
	"context"
	"testing"
	"time"

	"github.com/crossrank/crossrank/events/jetstream"
)

// Env is a running embedded server with an open store.
type Env struct {
	Dir    string
	Server *jetstream.Embedded
	Store  *jetstream.Store
}

// Start starts an embedded server in a temporary directory and opens the store.
func Start(tb testing.TB) *Env {
	tb.Helper()
	return StartIn(tb, tb.TempDir())
}

// StartIn starts an embedded server on dir (which may hold an earlier stream).
func StartIn(tb testing.TB, dir string) *Env {
	tb.Helper()
	srv, err := jetstream.StartEmbedded(jetstream.EmbeddedOptions{Dir: dir})
	if err != nil {
		tb.Fatalf("start embedded nats: %v", err)
	}
	tb.Cleanup(srv.Shutdown)
	nc, err := srv.Connect("test")
	if err != nil {
		tb.Fatalf("connect: %v", err)
	}
	tb.Cleanup(nc.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	st, err := jetstream.Open(ctx, nc, jetstream.Config{})
	if err != nil {
		tb.Fatalf("open store: %v", err)
	}
	return &Env{Dir: dir, Server: srv, Store: st}
}
