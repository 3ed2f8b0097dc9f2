package jetstream_test

import (
	"context"
	"errors"
	"net"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/events/jetstream"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
)

// startPlainServer starts a nats-server without JetStream on addr.
func startPlainServer(t *testing.T, addr string) *server.Server {
	t.Helper()
	host, port, _ := net.SplitHostPort(addr)
	p, _ := strconv.Atoi(port)
	srv, err := server.NewServer(&server.Options{Host: host, Port: p, NoLog: true, NoSigs: true})
	if err != nil {
		t.Fatal(err)
	}
	srv.Start()
	if !srv.ReadyForConnections(5 * time.Second) {
		t.Fatal("plain server not ready")
	}
	return srv
}

// TestRestartKeepsAcknowledged stops the server and starts it again on the
// same directory: every acknowledged event is there, in order, at the
// sequence its append returned.
func TestRestartKeepsAcknowledged(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	e := startServer(t, jetstream.EmbeddedOptions{Dir: dir})
	s := open(t, connect(t, e), jetstream.Config{})
	ctx := testContext(t)

	var want []string
	var wantSeqs []uint64
	var last uint64
	for i := range 20 {
		evs := []events.Event{vote(t, "p-restart", i)}
		if i%4 == 3 { // every fourth append is an atomic batch
			evs = append(evs, vote(t, "p-restart", i), vote(t, "p-restart", i))
		}
		seq, err := s.Append(ctx, expect("p-restart", last), evs...)
		if err != nil {
			t.Fatalf("Append %d: %v", i, err)
		}
		for j, ev := range evs {
			want = append(want, ev.ID)
			wantSeqs = append(wantSeqs, seq-uint64(len(evs)-1-j))
		}
		last = seq
	}
	e.Shutdown()

	e2 := startServer(t, jetstream.EmbeddedOptions{Dir: dir})
	s2 := open(t, connect(t, e2), jetstream.Config{})
	gotIDs, gotSeqs := replayIDs(t, s2, 1)
	if !slices.Equal(gotIDs, want) || !slices.Equal(gotSeqs, wantSeqs) {
		t.Fatalf("after restart: %d events at %v, want %d at %v", len(gotIDs), gotSeqs, len(want), wantSeqs)
	}
	// The aggregate continues where it stopped.
	if _, err := s2.Append(ctx, expect("p-restart", last), vote(t, "p-restart", 99)); err != nil {
		t.Fatalf("Append after restart: %v", err)
	}
}

// TestUnavailableWhileServerDown: with the server down, every operation
// fails at once with ErrUnavailable, and nothing sent during the outage
// reaches the stream after the connection comes back.
func TestUnavailableWhileServerDown(t *testing.T) {
	t.Parallel()
	dir, addr := t.TempDir(), freeAddr(t)
	e := startServer(t, jetstream.EmbeddedOptions{Dir: dir, Listen: addr})
	nc := connectURL(t, e.ClientURL())
	s := open(t, nc, jetstream.Config{})
	ctx := testContext(t)
	first, err := s.Append(ctx, expect("p-down", 0), vote(t, "p-down", 1))
	if err != nil {
		t.Fatal(err)
	}
	e.Shutdown()
	waitFor(t, "the client to notice", 5*time.Second, func() bool { return !nc.IsConnected() })

	ops := []struct {
		name string
		run  func() error
	}{
		{"Append", func() error {
			_, err := s.Append(ctx, expect("p-down", first), vote(t, "p-down", 2))
			return err
		}},
		{"Append batch", func() error {
			_, err := s.Append(ctx, expect("p-down", first), vote(t, "p-down", 3), vote(t, "p-down", 4))
			return err
		}},
		{"Load", func() error { _, err := s.Load(ctx, proposal("p-down"), 0); return err }},
		{"LastSequence", func() error { _, err := s.LastSequence(ctx); return err }},
		{"Ping", func() error { return s.Ping(ctx) }},
		{"Replay", func() error { return s.Replay(ctx, 1, func(events.Event) error { return nil }) }},
	}
	for _, op := range ops {
		start := time.Now()
		err := op.run()
		if took := time.Since(start); took > 100*time.Millisecond {
			t.Errorf("%s took %s while the server was down", op.name, took)
		}
		if !errors.Is(err, events.ErrUnavailable) {
			t.Errorf("%s error = %v, want ErrUnavailable", op.name, err)
		}
	}

	startServer(t, jetstream.EmbeddedOptions{Dir: dir, Listen: addr})
	waitFor(t, "the client to reconnect", 10*time.Second, nc.IsConnected)
	if err := s.Ping(ctx); err != nil {
		t.Fatalf("Ping after restart: %v", err)
	}
	got, err := s.Load(ctx, proposal("p-down"), 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Sequence != first {
		t.Fatalf("after the outage the aggregate holds %d events, want only the one acknowledged before", len(got))
	}
	if last, _ := s.LastSequence(ctx); last != first {
		t.Fatalf("LastSequence = %d after the outage, want %d", last, first)
	}
}

// TestTailSurvivesRestart follows the stream over TCP, like a replica on
// another machine, while the server restarts: every event arrives once.
func TestTailSurvivesRestart(t *testing.T) {
	t.Parallel()
	dir, addr := t.TempDir(), freeAddr(t)
	e := startServer(t, jetstream.EmbeddedOptions{Dir: dir, Listen: addr})
	url := e.ClientURL()
	writer := open(t, connectURL(t, url), jetstream.Config{})
	readerConn := connectURL(t, url)
	reader := struct {
		*jetstream.Store
		nc *nats.Conn
	}{open(t, readerConn, jetstream.Config{}), readerConn}
	ctx := testContext(t)

	var want []string
	appendN := func(n int) {
		t.Helper()
		for range n {
			ev := vote(t, "p-tail", len(want))
			if _, err := writer.Append(ctx, nil, ev); err != nil {
				t.Fatalf("Append: %v", err)
			}
			want = append(want, ev.ID)
		}
	}
	appendN(5) // before the tail starts: delivered as history

	var (
		mu   sync.Mutex
		got  []string
		seqs []uint64
	)
	received := func() int { mu.Lock(); defer mu.Unlock(); return len(got) }
	tailCtx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		done <- reader.Tail(tailCtx, 1, func(e events.Event) error {
			mu.Lock()
			defer mu.Unlock()
			got, seqs = append(got, e.ID), append(seqs, e.Sequence)
			return nil
		})
	}()
	waitFor(t, "history", 10*time.Second, func() bool { return received() >= 5 })
	appendN(5) // live
	waitFor(t, "live events", 10*time.Second, func() bool { return received() >= 10 })

	// The client's own recovery covers a plain restart; a server that comes
	// back without JetStream for a while makes that recovery fail, so Tail
	// has to start over from its own cursor.
	restarts := []struct {
		name   string
		outage func()
	}{
		{"restart", func() {}},
		{"restart again", func() {}},
		{"jetstream missing for a while", func() {
			plain := startPlainServer(t, addr)
			waitFor(t, "the reader to reconnect", 10*time.Second, reader.nc.IsConnected)
			time.Sleep(500 * time.Millisecond)
			plain.Shutdown()
			plain.WaitForShutdown()
		}},
	}
	for _, r := range restarts {
		e.Shutdown()
		r.outage()
		e = startServer(t, jetstream.EmbeddedOptions{Dir: dir, Listen: addr})
		waitFor(t, r.name+": the writer to reconnect", 10*time.Second, func() bool { return writer.Ping(ctx) == nil })
		appendN(5)
		n := len(want)
		waitFor(t, r.name+": events after it", 20*time.Second, func() bool { return received() >= n })
	}
	time.Sleep(200 * time.Millisecond) // room for a stray duplicate to show up
	stop()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("Tail returned %v after cancel, want context.Canceled", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if !slices.Equal(got, want) {
		t.Fatalf("tail delivered %d events %v, want %d %v", len(got), got, len(want), want)
	}
	for i := 1; i < len(seqs); i++ {
		if seqs[i] != seqs[i-1]+1 {
			t.Fatalf("tail skipped or repeated: sequence %d after %d", seqs[i], seqs[i-1])
		}
	}
}
