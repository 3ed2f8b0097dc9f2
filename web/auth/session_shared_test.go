package auth

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/events/jetstream"
	"github.com/crossrank/crossrank/events/jetstream/jstest"
	"github.com/nats-io/nats.go"
)

// sessionsKV opens the sessions bucket of a fresh embedded NATS over a
// connection of its own.
func sessionsKV(t *testing.T, js *jstest.Env) *jetstream.KV {
	t.Helper()
	nc, err := js.Server.Connect(t.Name())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	kv, err := jetstream.OpenKV(t.Context(), nc, jetstream.SessionsBucket, sessionTTL, 1)
	if err != nil {
		t.Fatal(err)
	}
	return kv
}

// eventually polls cond for up to 15 s: another replica learns of a
// session through the bucket's watcher a moment after the write (longer
// when NATS has just restarted and the watcher starts over).
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within 15 s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestSignOutDuringOutageReachesReplicasLater: a sign-out while NATS is
// down ends the session here at once and reaches the bucket (and so the
// other replicas) once NATS is back.
func TestSignOutDuringOutageReachesReplicasLater(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	dir := t.TempDir()
	srv, err := jetstream.StartEmbedded(jetstream.EmbeddedOptions{Dir: dir, Listen: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	addr := strings.TrimPrefix(srv.ClientURL(), "nats://")
	url := srv.ClientURL()
	follow := func(name string) *sessionRegistry {
		nc, err := jetstream.Connect(url, name, nats.ReconnectWait(20*time.Millisecond))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(nc.Close)
		kv, err := jetstream.OpenKV(ctx, nc, jetstream.SessionsBucket, sessionTTL, 1)
		if err != nil {
			t.Fatal(err)
		}
		g := newSessionRegistry(sessionTTL, 100)
		if err := g.follow(ctx, kv, func(error) {}); err != nil {
			t.Fatal(err)
		}
		return g
	}
	a, b := follow("a"), follow("b")
	now := time.Now()
	sid, err := a.issue(ctx, "alice", "hash", now)
	if err != nil {
		t.Fatal(err)
	}
	eventually(t, "the sign-in reaching replica b", func() bool { _, _, ok := b.lookup(sid, time.Now()); return ok })

	srv.Shutdown()
	if err := a.revoke(ctx, sid); err == nil {
		t.Fatal("revoke with NATS down: no error")
	}
	if _, _, ok := a.lookup(sid, time.Now()); ok {
		t.Fatal("the session still counts on the replica that ended it")
	}
	if _, err := a.issue(ctx, "bob", "hash", now); !errors.Is(err, events.ErrUnavailable) {
		t.Fatalf("a sign-in with NATS down: %v; want ErrUnavailable", err)
	}

	srv2, err := jetstream.StartEmbedded(jetstream.EmbeddedOptions{Dir: dir, Listen: addr})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv2.Shutdown)
	eventually(t, "the sign-out reaching replica b once NATS is back", func() bool { _, _, ok := b.lookup(sid, time.Now()); return !ok })
}

// stalledWatch is a bucket whose watcher delivers the current entries and
// then nothing more, as a replica's watcher lags behind under load.
type stalledWatch struct{ *jetstream.KV }

func (s stalledWatch) Watch(ctx context.Context, _ func(string, []byte, bool), ready func()) error {
	ready() // the test's bucket starts empty
	<-ctx.Done()
	return ctx.Err()
}

// TestSessionFoundBeforeWatcherDeliversIt: a sign-in on one replica counts
// on another whose watcher has not delivered it yet — the registry reads
// the bucket on a miss instead of ending the session (and, in the browser,
// clearing the cookie the sign-in just set).
func TestSessionFoundBeforeWatcherDeliversIt(t *testing.T) {
	js := jstest.Start(t)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	a, b := newSessionRegistry(sessionTTL, 100), newSessionRegistry(sessionTTL, 100)
	if err := a.follow(ctx, sessionsKV(t, js), func(error) {}); err != nil {
		t.Fatal(err)
	}
	if err := b.follow(ctx, stalledWatch{sessionsKV(t, js)}, func(error) {}); err != nil {
		t.Fatal(err)
	}
	sid, err := a.issue(ctx, "alice", "hash", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if user, _, ok := b.find(ctx, sid, time.Now()); !ok || user != "alice" {
		t.Fatalf("find on the lagging replica = %q, %v; want alice, true", user, ok)
	}
	if err := a.revoke(ctx, sid); err != nil {
		t.Fatal(err)
	}
	if _, _, ok := b.find(ctx, "not-a-session", time.Now()); ok {
		t.Error("an unknown session counts")
	}
}
