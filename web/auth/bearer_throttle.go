package auth

import "time"

// Bearer tokens that fail are throttled per client address, as sign-ins
// are (loginPerAddress): a token is 256 random bits, so the throttle does
// not protect the secret so much as the server, from a client hammering it
// with guesses, each a store lookup. It counts only failures and only the
// address they came from: a client whose token works is never refused
// because of someone else's failures.
var bearerPerAddress = backoff{free: 20, first: time.Minute, most: 15 * time.Minute, forget: time.Hour}

// LimitBearer names the bearer-token throttle for /metrics and the log.
const LimitBearer = "bearer_address"

// bearerRefused reports whether the client at addr must wait before its
// next bearer token is checked, and how long.
func (l *loginLimiter) bearerRefused(addr string, now time.Time) (time.Duration, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	d := l.bearers.until(addressKey(addr), now).Sub(now)
	return d, d > 0
}

// bearerFail records a bearer token that did not verify, from addr.
func (l *loginLimiter) bearerFail(addr string, now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.bearers.fail(addressKey(addr), now)
}
