package main

import (
	"context"
	"errors"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/events/jetstream/jstest"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/auth"
)

// TestFaultUnrulyDelivery feeds the projection runner (Store.Run, as serve
// runs it) from a tail that misbehaves the way a redelivering consumer can:
// each event twice, old events again after new ones, neighbours swapped,
// and the tail breaking off now and then. The runner must resume from its
// checkpoint each time and end with the same rows as a clean rebuild.
//
// Store.Apply's own handling of duplicates and gaps is tested event by
// event in projections (TestRedeliveryChangesNothing); this is the runner's
// side: a gap stops the tail, not the runner, and nothing applies twice.
func TestFaultUnrulyDelivery(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("replays the demo stream many times")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	env := jstest.Start(t)
	h := handler.New(env.Store, nil)
	if _, err := demo.Seed(ctx, h, demo.Options{Password: demoPassword, HashPassword: auth.HashPassword, Now: time.Now()}); err != nil {
		t.Fatal(err)
	}
	var evs []events.Event
	if err := env.Store.Replay(ctx, 1, func(ev events.Event) error { evs = append(evs, ev); return nil }); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := projections.Rebuild(ctx, env.Store, filepath.Join(dir, "clean.db")); err != nil {
		t.Fatal(err)
	}
	want := dumpReadModels(t, filepath.Join(dir, "clean.db"))

	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d, %d events", seed, len(evs))
	src := &unrulyTail{evs: evs, rng: rand.New(rand.NewPCG(seed, 1))}
	rs, err := projections.Open(filepath.Join(dir, "unruly.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer rs.Close()
	runCtx, stop := context.WithCancel(ctx)
	runErr := make(chan error, 1)
	go func() { runErr <- rs.Run(runCtx, src, slog.New(slog.DiscardHandler)) }()
	last := evs[len(evs)-1].Sequence
	if err := rs.WaitFor(ctx, last); err != nil {
		// WaitFor gives up after 5s; the runner backs off 250ms per broken tail.
		deadline := time.Now().Add(45 * time.Second)
		for err != nil && time.Now().Before(deadline) {
			err = rs.WaitFor(ctx, last)
		}
		if err != nil {
			seq, _ := rs.Checkpoint()
			t.Fatalf("the runner is stuck at %d of %d after %d tails", seq, last, src.calls())
		}
	}
	stop()
	if err := <-runErr; err != nil {
		t.Fatalf("Run stopped with %v", err)
	}
	if got := dumpReadModels(t, filepath.Join(dir, "unruly.db")); got != want {
		t.Fatalf("after unruly delivery the read models differ from a clean rebuild: %s", firstDifference(got, want))
	}
	t.Logf("caught up through %d unruly tails (%d events delivered for %d in the stream)", src.calls(), src.delivered, len(evs))
}

// unrulyTail delivers events from the requested sequence on, with
// duplicates, stale redeliveries and swapped neighbours, and breaks off at
// random; once caught up it waits like a live tail.
type unrulyTail struct {
	evs []events.Event

	mu        sync.Mutex
	rng       *rand.Rand
	n         int
	delivered int
}

func (u *unrulyTail) calls() int {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.n
}

var errTailBroke = errors.New("tail broke off")

func (u *unrulyTail) Tail(ctx context.Context, from uint64, fn func(events.Event) error) error {
	u.mu.Lock()
	u.n++
	// Every third tail is faithful, so the runner surely gets to the end.
	faithful := u.n%3 == 0
	u.mu.Unlock()
	for i := int(from) - 1; i < len(u.evs); i++ {
		batch := []events.Event{u.evs[i]}
		u.mu.Lock()
		r := u.rng.IntN(100)
		u.mu.Unlock()
		switch {
		case faithful:
		case r < 2 && i+1 < len(u.evs):
			batch = []events.Event{u.evs[i+1], u.evs[i]} // swapped: a gap, then an old one
			i++
		case r < 3:
			return errTailBroke
		case r < 23:
			batch = append(batch, u.evs[i]) // twice
		case r < 33 && i > 10:
			batch = append(batch, u.evs[i-10:i]...) // older ones again
		}
		for _, ev := range batch {
			if err := fn(ev); err != nil {
				return err
			}
			u.mu.Lock()
			u.delivered++
			u.mu.Unlock()
		}
	}
	<-ctx.Done()
	return ctx.Err()
}
