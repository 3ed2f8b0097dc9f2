package web

import (
	"sync"
	"time"
)

// Sign-in limits: failures allowed per window, per account and per peer.
// The per-account limit stops guessing one password; the per-peer limit
// stops one address trying many accounts.
const (
	loginWindow        = 15 * time.Minute
	loginFailsPerUser  = 5
	loginFailsPerPeer  = 20
	loginLimiterMaxKey = 50_000
)

// loginLimiter counts failed sign-ins in a sliding window per key
// ("u:<username>", "p:<address>").
type loginLimiter struct {
	mu    sync.Mutex
	fails map[string][]time.Time // times of failures within the window, oldest first
}

func newLoginLimiter() *loginLimiter {
	return &loginLimiter{fails: map[string][]time.Time{}}
}

// blocked reports whether key has reached limit failures within the window,
// and when the oldest of them leaves it.
func (l *loginLimiter) blocked(key string, limit int, now time.Time) (time.Duration, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	ts := l.recent(key, now)
	if len(ts) < limit {
		return 0, false
	}
	return ts[len(ts)-limit].Add(loginWindow).Sub(now), true
}

// fail records a failure for each key.
func (l *loginLimiter) fail(now time.Time, keys ...string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.fails) >= loginLimiterMaxKey {
		for k := range l.fails {
			if len(l.recent(k, now)) == 0 {
				delete(l.fails, k)
			}
		}
	}
	for _, k := range keys {
		ts := append(l.recent(k, now), now)
		if len(ts) > loginFailsPerPeer {
			ts = ts[len(ts)-loginFailsPerPeer:] // no limit counts further back
		}
		l.fails[k] = ts
	}
}

// reset forgets key's failures (an account after a successful sign-in).
func (l *loginLimiter) reset(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.fails, key)
}

// recent drops key's failures older than the window and returns the rest.
func (l *loginLimiter) recent(key string, now time.Time) []time.Time {
	ts := l.fails[key]
	i := 0
	for i < len(ts) && !now.Before(ts[i].Add(loginWindow)) {
		i++
	}
	if i == len(ts) {
		delete(l.fails, key)
		return nil
	}
	ts = ts[i:]
	l.fails[key] = ts
	return ts
}
