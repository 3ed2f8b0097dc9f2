// Package jstest starts a real embedded JetStream event store for tests in
// other packages: no mocks, a fresh directory per test, torn down at the end.
package jstest

import (
	"context"
	"testing"
	"time"

	"github.com/crossrank/crossrank/events"
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
	st, err := jetstream.Open(ctx, nc, jetstream.Config{MaxBatch: jetstream.EmbeddedMaxBatch})
	if err != nil {
		tb.Fatalf("open store: %v", err)
	}
	return &Env{Dir: dir, Server: srv, Store: st}
}

// DefineRanking appends def (and sc, when given) as a store written before
// methodology went through review holds them: RankingDefined and
// ScenariosSet, by the system. Tests that are not about methodology start
// from such a ranking; those that are go through a methodology proposal.
func DefineRanking(tb testing.TB, store events.Store, def events.RankingDefined, sc *events.ScenariosSet) uint64 {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	now := time.Now().UTC()
	var evs []events.Event
	for _, data := range []any{&def, sc} {
		if data == (*events.ScenariosSet)(nil) {
			continue
		}
		ev, err := events.New(events.NewID(now), now, "system", def.Slug, data)
		if err != nil {
			tb.Fatalf("define ranking: %v", err)
		}
		evs = append(evs, ev)
	}
	last, err := store.Append(ctx, nil, evs...)
	if err != nil {
		tb.Fatalf("define ranking: %v", err)
	}
	return last
}
