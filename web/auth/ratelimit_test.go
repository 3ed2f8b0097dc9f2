package auth

import (
	"net/netip"
	"strconv"
	"testing"
	"time"
)

// A flood of distinct addresses and accounts cannot grow the throttle
// without limit, nor push out a client it is making wait.
func TestLoginThrottleBounded(t *testing.T) {
	const max = 100
	l := newLoginLimiter(max)
	now := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	for range loginPerClient.free {
		l.fail("alice", "198.51.100.1", now)
	}
	for i := range 10_000 {
		l.fail("user"+strconv.Itoa(i), netip.AddrFrom4([4]byte{10, byte(i >> 16), byte(i >> 8), byte(i)}).String(), now)
	}
	for name, s := range map[string]strikes{"clients": l.clients, "addresses": l.addresses, "accounts": l.accounts} {
		if len(s.m) > max {
			t.Errorf("%s holds %d keys, want at most %d", name, len(s.m), max)
		}
	}
	if _, _, refused := l.refused("alice", "198.51.100.1", now); !refused {
		t.Error("the flood pushed out the client being made to wait")
	}
	// Keys are forgotten with time, not only when the map is full.
	later := now.Add(loginPerClient.forget)
	if _, _, refused := l.refused("alice", "198.51.100.1", later); refused {
		t.Error("still refused once the failures are forgotten")
	}
}

func TestLoginThrottleBackoff(t *testing.T) {
	b := backoff{free: 2, first: time.Second, most: 5 * time.Second, forget: time.Minute}
	for _, tc := range []struct {
		fails int
		want  time.Duration
	}{{0, 0}, {1, 0}, {2, time.Second}, {3, 2 * time.Second}, {4, 4 * time.Second}, {5, 5 * time.Second}, {1000, 5 * time.Second}} {
		if got := b.wait(tc.fails); got != tc.want {
			t.Errorf("wait(%d) = %v, want %v", tc.fails, got, tc.want)
		}
	}
}

// A success forgets the client's failures on the account, not the
// address's or the account's.
func TestLoginThrottleSuccessForgetsClient(t *testing.T) {
	l := newLoginLimiter(loginLimiterMaxKeys)
	now := time.Now()
	for range loginPerAccount.free + 1 {
		l.fail("alice", "2001:db8::1", now)
	}
	if _, _, refused := l.refused("alice", "2001:db8::2", now); !refused {
		t.Error("another address in the same /64 is not throttled with it")
	}
	l.succeed("alice", "2001:db8::1")
	if _, _, refused := l.refused("alice", "2001:db8::1", now); refused {
		t.Error("still refused after signing in")
	}
	if l.delay("alice", now) == 0 {
		t.Error("the account-wide delay was forgotten by one success")
	}
}
