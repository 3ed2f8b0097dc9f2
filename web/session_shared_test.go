package web

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/events/jetstream"
	"github.com/nats-io/nats.go"
)

// replica is a second server on the env's store, as another replica
// behind the same load balancer: its own handler, the same keys.
func (e *env) replica(t *testing.T) *Server {
	t.Helper()
	srv, err := New(Config{Commands: domain.NewHandler(e.store, nil), Waiter: e.waiter, Tokens: storeTokens{e.store},
		SessionKeys: [][]byte{bytes.Repeat([]byte("k"), 32)}}) // newEnv's key
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

// sessionsKV opens the sessions bucket over a connection of its own.
func (e *env) sessionsKV(t *testing.T) *jetstream.KV {
	t.Helper()
	nc, err := e.js.Server.Connect(t.Name())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	kv, err := jetstream.OpenKV(testContext(t), nc, jetstream.SessionsBucket, sessionTTL, 1)
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

func TestSessionsSharedBetweenReplicas(t *testing.T) {
	e := newEnv(t)
	ctx, cancel := context.WithCancel(testContext(t))
	defer cancel()
	a, b := e.srv, e.replica(t)
	if err := a.ShareSessions(ctx, e.sessionsKV(t)); err != nil {
		t.Fatal(err)
	}
	if err := b.ShareSessions(ctx, e.sessionsKV(t)); err != nil {
		t.Fatal(err)
	}
	onA := e.client()
	onA.login("alice")
	onB := e.client()
	onB.h, onB.cookies = b.Handler(), onA.cookies // the same browser, routed to the other replica
	eventually(t, "a sign-in on replica A counting on replica B", onB.signedIn)

	// A restart: a fresh server loads the sessions from the bucket before
	// it serves, so the cookie still counts.
	c := e.replica(t)
	if err := c.ShareSessions(ctx, e.sessionsKV(t)); err != nil {
		t.Fatal(err)
	}
	onC := e.client()
	onC.h, onC.cookies = c.Handler(), onA.cookies
	if !onC.signedIn() {
		t.Fatal("a restarted replica does not know the session")
	}

	// Signing out on B ends the session on A and C too, for any copy of
	// the cookie.
	saved := map[string]*http.Cookie{}
	for k, v := range onA.cookies {
		cp := *v
		saved[k] = &cp
	}
	if res, body := onB.postForm("/logout", url.Values{}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("logout on B: %d %.200s", res.StatusCode, body)
	}
	for name, h := range map[string]http.Handler{"A": a.Handler(), "B": b.Handler(), "C": c.Handler()} {
		replay := e.client()
		replay.h = h
		for k, v := range saved {
			cp := *v
			replay.cookies[k] = &cp
		}
		eventually(t, "the session signed out on B ending on "+name, func() bool { return !replay.signedIn() })
	}
}

// TestPasswordChangeEndsOtherSessions: after a password change, the session
// that changed it stays signed in and every other one ends; a change made
// outside any server (`crossrank user passwd` runs the same command) ends
// them all.
func TestPasswordChangeEndsOtherSessions(t *testing.T) {
	e := newAdminEnv(t)
	laptop, phone := e.client("ed"), e.client("ed")
	form := formValues(byTestID(e.get(laptop, pathAccount, http.StatusOK), "password-form"))
	const fresh = "a much longer new password"
	form.Set("current_password", testPassword)
	form.Set("new_password", fresh)
	form.Set("confirm_password", fresh)
	if status, loc, _ := e.post(laptop, pathAccount+"/password", form); status != http.StatusSeeOther || loc != pathAccount+"?done=password" {
		t.Fatalf("change password: status %d, Location %q", status, loc)
	}
	if !laptop.signedIn() {
		t.Error("the session that changed the password was signed out")
	}
	if phone.signedIn() {
		t.Error("another session still counts after the password change")
	}
	if phone.cookies[sessionCookie] != nil && phone.cookies[sessionCookie].MaxAge >= 0 {
		t.Error("the ended session's cookie was not cleared")
	}

	hash, err := HashPassword("yet another long password")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.cmd.ChangePassword(e.ctx, domain.System(), domain.ChangePassword{User: "ed", PasswordHash: hash}); err != nil {
		t.Fatal(err)
	}
	if laptop.signedIn() {
		t.Error("a session still counts after the password was changed from the command line")
	}
}

// TestSignOutDuringOutageReachesReplicasLater: a sign-out while NATS is
// down ends the session here at once and reaches the bucket (and so the
// other replicas) once NATS is back.
func TestSignOutDuringOutageReachesReplicasLater(t *testing.T) {
	ctx, cancel := context.WithCancel(testContext(t))
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
	e := newEnv(t)
	ctx, cancel := context.WithCancel(testContext(t))
	defer cancel()
	a, b := newSessionRegistry(sessionTTL, 100), newSessionRegistry(sessionTTL, 100)
	if err := a.follow(ctx, e.sessionsKV(t), func(error) {}); err != nil {
		t.Fatal(err)
	}
	if err := b.follow(ctx, stalledWatch{e.sessionsKV(t)}, func(error) {}); err != nil {
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
