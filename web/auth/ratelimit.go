package auth

import (
	"context"
	"net/netip"
	"slices"
	"sync"
	"time"
)

// backoff is how a throttle answers failures: the first free failures cost
// nothing; each further one makes the key wait, first, then twice as long
// after every failure, up to most. A key without a failure for forget is
// forgotten; forget outlasts most, so that waiting out the longest delay
// does not buy a fresh set of free failures.
type backoff struct {
	free   int
	first  time.Duration
	most   time.Duration
	forget time.Duration
}

// wait is the delay after fails failures.
func (b backoff) wait(fails int) time.Duration {
	if fails < b.free {
		return 0
	}
	d := b.first
	for range fails - b.free {
		if d >= b.most {
			break
		}
		d *= 2
	}
	return min(d, b.most)
}

// Sign-in throttles (OWASP authentication guidance): the right password
// from a client that did not fail is never refused because of someone
// else's failures.
var (
	// loginPerClient is per account and client address: guessing one
	// account's password from one place slows to one try per 15 minutes.
	loginPerClient = backoff{free: 5, first: 30 * time.Second, most: 15 * time.Minute, forget: time.Hour}
	// loginPerAddress is per client address, whatever the account: it
	// slows one place trying many accounts.
	loginPerAddress = backoff{free: 20, first: time.Minute, most: 15 * time.Minute, forget: time.Hour}
	// loginPerAccount is per account, whatever the address. It only delays
	// the answer, a little, never refuses: guessing from many addresses
	// gets slower, and nobody can lock the account's owner out.
	loginPerAccount = backoff{free: 10, first: 250 * time.Millisecond, most: 2 * time.Second, forget: 15 * time.Minute}
)

// loginLimiterMaxKeys bounds each throttle's memory: a flood of distinct
// addresses or account names evicts the keys that matter least.
const loginLimiterMaxKeys = 50_000

// Which limit refused a sign-in, as /metrics and the log name it.
const (
	LimitClient  = "account_address"
	LimitAddress = "address"
)

// loginLimiter throttles sign-in failures in memory (each replica its own).
type loginLimiter struct {
	mu        sync.Mutex
	clients   strikes // key: account, NUL, address
	addresses strikes
	accounts  strikes
	bearers   strikes // key: address; failed bearer tokens (bearer_throttle.go)
	// sleep waits d or until ctx ends; tests replace it.
	sleep func(ctx context.Context, d time.Duration)
}

func newLoginLimiter(maxKeys int) *loginLimiter {
	return &loginLimiter{
		clients:   newStrikes(loginPerClient, maxKeys),
		addresses: newStrikes(loginPerAddress, maxKeys),
		accounts:  newStrikes(loginPerAccount, maxKeys),
		bearers:   newStrikes(bearerPerAddress, maxKeys),
		sleep:     sleepCtx,
	}
}

// refused reports whether the client at addr must wait before it may try
// account again, how long, and which limit says so.
func (l *loginLimiter) refused(account, addr string, now time.Time) (time.Duration, string, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	addr = addressKey(addr)
	if d := l.addresses.until(addr, now).Sub(now); d > 0 {
		return d, LimitAddress, true
	}
	if d := l.clients.until(clientKey(account, addr), now).Sub(now); d > 0 {
		return d, LimitClient, true
	}
	return 0, "", false
}

// delay is how long to hold an attempt on account before checking the
// password: nothing until the account has failed often, and never long.
func (l *loginLimiter) delay(account string, now time.Time) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := l.accounts.get(account, now)
	if s == nil {
		return 0
	}
	return loginPerAccount.wait(s.fails)
}

// fail records a failed sign-in to account from addr.
func (l *loginLimiter) fail(account, addr string, now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	addr = addressKey(addr)
	l.clients.fail(clientKey(account, addr), now)
	l.addresses.fail(addr, now)
	l.accounts.fail(account, now)
}

// succeed forgets the client's failures on account. The address and the
// account keep theirs: one right password from somewhere does not excuse
// the guessing elsewhere.
func (l *loginLimiter) succeed(account, addr string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.clients.m, clientKey(account, addressKey(addr)))
}

func clientKey(account, addr string) string { return account + "\x00" + addr }

// addressKey is the address a throttle counts: an IPv6 client usually
// holds a whole /64, so the /64 counts as one address.
func addressKey(addr string) string {
	a, err := netip.ParseAddr(addr)
	if err != nil || !a.Is6() {
		return addr
	}
	return netip.PrefixFrom(a, 64).Masked().String()
}

// sleepCtx waits d or until ctx ends.
func sleepCtx(ctx context.Context, d time.Duration) {
	if d <= 0 {
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}

// strikes counts failures per key under a backoff, holding at most max
// keys. The caller holds the limiter's lock.
type strikes struct {
	policy backoff
	max    int
	m      map[string]*strike
}

type strike struct {
	fails int
	last  time.Time // the latest failure
}

func newStrikes(b backoff, max int) strikes {
	return strikes{policy: b, max: max, m: map[string]*strike{}}
}

// get returns key's strike, or nil when it has none or it is forgotten.
func (s *strikes) get(key string, now time.Time) *strike {
	st := s.m[key]
	if st != nil && !now.Before(st.last.Add(s.policy.forget)) {
		delete(s.m, key)
		return nil
	}
	return st
}

// until is when key may try again (the zero time: now).
func (s *strikes) until(key string, now time.Time) time.Time {
	st := s.get(key, now)
	if st == nil {
		return time.Time{}
	}
	return st.last.Add(s.policy.wait(st.fails))
}

func (s *strikes) fail(key string, now time.Time) {
	st := s.get(key, now)
	if st == nil {
		s.makeRoom(now)
		st = &strike{}
		s.m[key] = st
	}
	st.fails++
	st.last = now
}

// makeRoom keeps the map under max before a key is added: it drops the
// forgotten keys and, if that is not enough, the tenth whose waits end
// soonest — those that hold nobody back now, and last of all the keys a
// flood most wants gone, the ones it is being made to wait on.
func (s *strikes) makeRoom(now time.Time) {
	if len(s.m) < s.max {
		return
	}
	for k := range s.m {
		s.get(k, now)
	}
	if len(s.m) < s.max {
		return
	}
	type entry struct {
		key   string
		until time.Time
	}
	all := make([]entry, 0, len(s.m))
	for k, st := range s.m {
		all = append(all, entry{k, st.last.Add(s.policy.wait(st.fails))})
	}
	slices.SortFunc(all, func(a, b entry) int { return a.until.Compare(b.until) })
	for _, e := range all[:len(all)-s.max*9/10] {
		delete(s.m, e.key)
	}
}
