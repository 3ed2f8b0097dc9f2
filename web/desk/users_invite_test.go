package desk_test

import (
	"bytes"
	"log/slog"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events/jetstream/jstest"
	"github.com/crossrank/crossrank/web"
	"github.com/crossrank/crossrank/web/auth"
	"github.com/crossrank/crossrank/web/webtest"
)

// testClock is a clock a test moves by hand.
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *testClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }

func (c *testClock) add(d time.Duration) { c.mu.Lock(); defer c.mu.Unlock(); c.now = c.now.Add(d) }

// TestInvitationLinkOnceWithin72Hours: a one-time link works once, not at
// or after 72 hours, and not once revoked or replaced by a reset; the
// clock is the server's and the domain's, moved by the test.
func TestInvitationLinkOnceWithin72Hours(t *testing.T) {
	t.Parallel()
	ctx := webtest.Context(t)
	clock := &testClock{now: time.Date(2026, 12, 1, 14, 0, 0, 0, time.UTC)}
	cmd := handler.New(jstest.Start(t).Store, clock.Now)
	srv, err := web.New(web.Config{Commands: cmd, Now: clock.Now, Logger: slog.New(slog.DiscardHandler),
		SessionKeys: [][]byte{bytes.Repeat([]byte("k"), 32)}})
	if err != nil {
		t.Fatal(err)
	}
	c := func() *webtest.Client {
		return &webtest.Client{T: t, H: srv.Handler(), Cookies: map[string]*http.Cookie{}, Header: http.Header{}, Peer: "192.0.2.9:4000"}
	}
	ada := domain.Actor{Name: "ada", Roles: []string{domain.RoleAdmin}}
	invited := func(name string) string {
		t.Helper()
		token, hash := auth.NewLinkToken()
		if _, err := cmd.InviteUser(ctx, ada, domain.InviteUser{Username: name, Roles: []string{domain.RoleReviewer}, LinkHash: hash}); err != nil {
			t.Fatal(err)
		}
		return auth.WelcomeURL("", name, token)
	}
	expiring, revoked, replaced, used := invited("exp"), invited("rev"), invited("rep"), invited("use")

	// Used once: the second use is refused, with a new form as with the old.
	if status, _ := webtest.Accept(t, c(), used, webtest.Password); status != http.StatusSeeOther {
		t.Fatalf("first use: status %d", status)
	}
	if status, _ := webtest.Accept(t, c(), used, "another password"); status != http.StatusNotFound {
		t.Errorf("second use: status %d, want 404", status)
	}
	// Revoked.
	if _, err := cmd.RevokeInvitation(ctx, ada, domain.RevokeInvitation{User: "rev"}); err != nil {
		t.Fatal(err)
	}
	if status, _ := webtest.Accept(t, c(), revoked, webtest.Password); status != http.StatusNotFound {
		t.Errorf("revoked link: status %d, want 404", status)
	}
	// Replaced by a reset: the old link is dead, the new one works.
	token, hash := auth.NewLinkToken()
	if _, err := cmd.ResetPassword(ctx, ada, domain.ResetPassword{User: "rep", LinkHash: hash}); err != nil {
		t.Fatal(err)
	}
	if status, _ := webtest.Accept(t, c(), replaced, webtest.Password); status != http.StatusNotFound {
		t.Errorf("replaced link: status %d, want 404", status)
	}
	// Just before 72 hours the link opens; at 72 hours it no longer does.
	clock.add(domain.InvitationTTL - time.Second)
	if res, _ := c().Do(http.MethodGet, expiring, nil, nil); res.StatusCode != http.StatusOK {
		t.Errorf("at 71:59:59: status %d, want 200", res.StatusCode)
	}
	if res, _ := c().Do(http.MethodGet, expiring, nil, nil); res.Header.Get("Cache-Control") != "no-store" || res.Header.Get("Referrer-Policy") != "no-referrer" {
		t.Errorf("the link's page may be kept or referred: %q %q", res.Header.Get("Cache-Control"), res.Header.Get("Referrer-Policy"))
	}
	clock.add(time.Second)
	if status, _ := webtest.Accept(t, c(), expiring, webtest.Password); status != http.StatusNotFound {
		t.Errorf("at 72 hours: status %d, want 404", status)
	}
	if status, _ := webtest.Accept(t, c(), auth.WelcomeURL("", "rep", token), webtest.Password); status != http.StatusNotFound {
		t.Errorf("the reset's link, 72 hours later: status %d, want 404", status)
	}
	// Only the accepted account signs in.
	for name, want := range map[string]int{"use": http.StatusSeeOther, "exp": http.StatusUnauthorized, "rev": http.StatusUnauthorized} {
		if res, _ := c().PostForm("/login", map[string][]string{"username": {name}, "password": {webtest.Password}}); res.StatusCode != want {
			t.Errorf("sign in as %s: status %d, want %d", name, res.StatusCode, want)
		}
	}
}
