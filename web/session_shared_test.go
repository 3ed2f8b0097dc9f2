package web

import (
	"bytes"
	"context"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events/jetstream"
	"github.com/crossrank/crossrank/web/auth"
	"github.com/crossrank/crossrank/web/paths"
)

// replica is a second server on the env's store, as another replica
// behind the same load balancer: its own handler, the same keys.
func (e *env) replica(t *testing.T) *Server {
	t.Helper()
	srv, err := New(Config{Commands: handler.New(e.store, nil), Waiter: e.waiter, Tokens: storeTokens{e.store},
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
	kv, err := jetstream.OpenKV(testContext(t), nc, jetstream.SessionsBucket, auth.SessionLifetime, 1)
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
	t.Parallel()
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
	t.Parallel()
	e := newAdminEnv(t)
	laptop, phone := e.client("ed"), e.client("ed")
	form := formValues(byTestID(e.get(laptop, paths.Account, http.StatusOK), "password-form"))
	const fresh = "a much longer new password"
	form.Set("current_password", testPassword)
	form.Set("new_password", fresh)
	form.Set("confirm_password", fresh)
	if status, loc, _ := e.post(laptop, paths.Account+"/password", form); status != http.StatusSeeOther || loc != paths.Account+"?done=password" {
		t.Fatalf("change password: status %d, Location %q", status, loc)
	}
	if !laptop.signedIn() {
		t.Error("the session that changed the password was signed out")
	}
	if phone.signedIn() {
		t.Error("another session still counts after the password change")
	}
	if phone.cookies[auth.CookieName] != nil && phone.cookies[auth.CookieName].MaxAge >= 0 {
		t.Error("the ended session's cookie was not cleared")
	}

	hash, err := auth.HashPassword("yet another long password")
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
