package auth

import (
	"context"
	"testing"
	"time"
)

func TestSessionRegistryBounded(t *testing.T) {
	g := newSessionRegistry(time.Hour, 3)
	ctx := context.Background()
	now := time.Now()
	issue := func(user string, at time.Time) string {
		sid, err := g.issue(ctx, user, "hash-"+user, at)
		if err != nil {
			t.Fatal(err)
		}
		return sid
	}
	ids := []string{issue("a", now), issue("b", now.Add(time.Second)), issue("c", now.Add(2*time.Second))}
	issue("d", now.Add(3*time.Second))
	if _, _, ok := g.lookup(ids[0], now.Add(4*time.Second)); ok {
		t.Error("the oldest session survived a full registry")
	}
	if _, pw, ok := g.lookup(ids[2], now.Add(4*time.Second)); !ok || pw != passwordDigest("hash-c") {
		t.Errorf("a recent session was dropped, or lost its password digest (%q)", pw)
	}
	if n, err := g.revokeUser(ctx, "c"); n != 1 || err != nil {
		t.Errorf("revokeUser = %d, %v", n, err)
	}
	if _, _, ok := g.lookup(ids[2], now.Add(4*time.Second)); ok {
		t.Error("revoked session still counts")
	}
}
