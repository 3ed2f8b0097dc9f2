package jetstream_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/events/jetstream"
	"github.com/crossrank/crossrank/events/jetstream/testnet"
	"github.com/nats-io/nats.go"
)

// testTimeout bounds every test that talks to a server.
const testTimeout = 60 * time.Second

func testContext(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), testTimeout)
	t.Cleanup(cancel)
	return ctx
}

// startServer starts an embedded server on dir, shut down when the test ends
// (Shutdown is idempotent, so tests may stop it earlier).
func startServer(t testing.TB, opts jetstream.EmbeddedOptions) *jetstream.Embedded {
	t.Helper()
	e, err := jetstream.StartEmbedded(opts)
	if err != nil {
		t.Fatalf("StartEmbedded: %v", err)
	}
	t.Cleanup(e.Shutdown)
	return e
}

// connect opens an in-process connection, closed when the test ends.
func connect(t testing.TB, e *jetstream.Embedded) *nats.Conn {
	t.Helper()
	nc, err := e.Connect(t.Name())
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	t.Cleanup(nc.Close)
	return nc
}

// connectURL opens a TCP connection like an external replica would.
func connectURL(t testing.TB, url string) *nats.Conn {
	t.Helper()
	nc, err := jetstream.Connect(url, t.Name())
	if err != nil {
		t.Fatalf("Connect(%s): %v", url, err)
	}
	t.Cleanup(nc.Close)
	return nc
}

func open(t testing.TB, nc *nats.Conn, cfg jetstream.Config) *jetstream.Store {
	t.Helper()
	s, err := jetstream.Open(testContext(t), nc, cfg)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	return s
}

// newStore starts a private embedded server in a temporary directory.
func newStore(t testing.TB) *jetstream.Store {
	t.Helper()
	e := startServer(t, jetstream.EmbeddedOptions{Dir: t.TempDir()})
	return open(t, connect(t, e), jetstream.Config{})
}

// freeAddr returns a loopback address nobody listens on right now, so a
// server can be restarted on the same port (testnet.FreeAddr: outside the
// ephemeral range, so no client connection takes it meanwhile).
func freeAddr(t testing.TB) string { return testnet.FreeAddr(t) }

// waitFor polls cond until it holds or the deadline passes.
func waitFor(t testing.TB, what string, d time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s", d, what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

var ticks atomic.Int64

// tick returns distinct increasing times.
func tick() time.Time {
	return time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC).Add(time.Duration(ticks.Add(1)) * time.Millisecond)
}

// vote returns a new VoteCast event on proposal id.
func vote(t testing.TB, id string, n int) events.Event {
	t.Helper()
	at := tick()
	e, err := events.New(events.NewID(at), at, "alice", id,
		&events.VoteCast{Revision: n, Verdict: events.Approve, VerifiedEvidence: []string{"e1"}})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func proposal(id string) events.Aggregate {
	return events.Aggregate{Kind: events.KindProposal, ID: id}
}

func expect(id string, last uint64) []events.Expectation {
	return []events.Expectation{{Aggregate: proposal(id), LastSeq: last}}
}

func replayIDs(t testing.TB, s *jetstream.Store, from uint64) ([]string, []uint64) {
	t.Helper()
	var ids []string
	var seqs []uint64
	err := s.Replay(testContext(t), from, func(e events.Event) error {
		ids, seqs = append(ids, e.ID), append(seqs, e.Sequence)
		return nil
	})
	if err != nil {
		t.Fatalf("Replay: %v", err)
	}
	return ids, seqs
}
