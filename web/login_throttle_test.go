package web

import (
	"context"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// The sign-in throttles' policy as these tests see it from outside (see
// auth's ratelimit.go): free failures per account and address, per
// address, and the longest waits.
const (
	freePerClient  = 5
	freePerAddress = 20
	mostPerClient  = 15 * time.Minute
	mostPerAccount = 2 * time.Second
)

// throttleEnv is a test server whose clock the test moves and whose
// account-wide delay is recorded instead of slept.
type throttleEnv struct {
	*env
	mu     sync.Mutex
	now    time.Time
	delays []time.Duration
}

func newThrottleEnv(t *testing.T, tweak ...func(*Config)) *throttleEnv {
	t.Helper()
	te := &throttleEnv{now: time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)}
	clock := func() time.Time {
		te.mu.Lock()
		defer te.mu.Unlock()
		return te.now
	}
	record := func(_ context.Context, d time.Duration) {
		te.mu.Lock()
		defer te.mu.Unlock()
		te.delays = append(te.delays, d)
	}
	te.env = newEnv(t, append([]func(*Config){func(c *Config) { c.Now, c.sleep = clock, record }}, tweak...)...)
	return te
}

func (te *throttleEnv) advance(d time.Duration) {
	te.mu.Lock()
	defer te.mu.Unlock()
	te.now = te.now.Add(d)
}

// lastDelay is the account-wide delay of the latest sign-in attempt.
func (te *throttleEnv) lastDelay() time.Duration {
	te.mu.Lock()
	defer te.mu.Unlock()
	if len(te.delays) == 0 {
		return 0
	}
	return te.delays[len(te.delays)-1]
}

// clientAt returns a client whose connection comes from addr; forwarded,
// when not empty, is sent as X-Forwarded-For.
func (te *throttleEnv) clientAt(addr, forwarded string) *client {
	c := te.client()
	c.peer = addr + ":40000"
	if forwarded != "" {
		c.header.Set("X-Forwarded-For", forwarded)
	}
	return c
}

// signIn posts a sign-in and returns the status and Retry-After in seconds.
func signIn(c *client, user, password string) (int, int) {
	res, _ := c.postForm("/login", url.Values{"username": {user}, "password": {password}})
	after, _ := strconv.Atoi(res.Header.Get("Retry-After"))
	return res.StatusCode, after
}

// guess sends wrong passwords for user until the client is refused, or n
// times, and returns the number of 401s.
func guess(c *client, user string, n int) int {
	failed := 0
	for i := range n {
		status, _ := signIn(c, user, "wrong "+strconv.Itoa(i))
		if status != http.StatusUnauthorized {
			break
		}
		failed++
	}
	return failed
}

// An attacker guessing alice's password from several addresses does not
// keep alice out: her right password from her own address works at once,
// slowed at most by the small account-wide delay.
func TestLoginThrottleSparesCleanClient(t *testing.T) {
	t.Parallel()
	te := newThrottleEnv(t)
	for i := range 4 {
		attacker := te.clientAt("198.51.100."+strconv.Itoa(i+1), "")
		if got := guess(attacker, "alice", 50); got != freePerClient {
			t.Fatalf("attacker %d failed %d times before being refused, want %d", i, got, freePerClient)
		}
	}
	alice := te.clientAt("203.0.113.9", "")
	if status, _ := signIn(alice, "alice", testPassword); status != http.StatusSeeOther || !alice.signedIn() {
		t.Fatalf("alice from a clean address: status %d, want 303 and signed in", status)
	}
	if d := te.lastDelay(); d <= 0 || d > mostPerAccount {
		t.Errorf("account-wide delay %v, want a little (0 < d <= %v) after %d failures", d, mostPerAccount, 4*freePerClient)
	}
	// The attacker stays refused, even with the right password.
	if status, _ := signIn(te.clientAt("198.51.100.1", ""), "alice", testPassword); status != http.StatusTooManyRequests {
		t.Errorf("attacker with the right password: status %d, want 429", status)
	}
}

// The client that fails is refused with a Retry-After that doubles with
// every failure after the free ones, up to a cap; waiting it out buys one
// more try, not a fresh set.
func TestLoginThrottleSlowsAttacker(t *testing.T) {
	t.Parallel()
	te := newThrottleEnv(t)
	attacker := te.clientAt("198.51.100.7", "")
	if got := guess(attacker, "alice", 50); got != freePerClient {
		t.Fatalf("failed %d times before being refused, want %d", got, freePerClient)
	}
	res, body := attacker.postForm("/login", url.Values{"username": {"alice"}, "password": {testPassword}})
	if res.StatusCode != http.StatusTooManyRequests || res.Header.Get("Retry-After") != "30" {
		t.Fatalf("status %d Retry-After %q, want 429 after 30 s", res.StatusCode, res.Header.Get("Retry-After"))
	}
	if !strings.Contains(body, "Try again in 30 seconds") {
		t.Errorf("429 page does not say when to retry: %.500s", body)
	}
	want := 30
	for range 8 {
		te.advance(time.Duration(want) * time.Second)
		if status, _ := signIn(attacker, "alice", "still wrong"); status != http.StatusUnauthorized {
			t.Fatalf("after waiting %d s: status %d, want one more try (401)", want, status)
		}
		want = min(2*want, int(mostPerClient/time.Second))
		if status, after := signIn(attacker, "alice", "wrong again"); status != http.StatusTooManyRequests || after != want {
			t.Fatalf("status %d Retry-After %d, want 429 after %d s", status, after, want)
		}
	}
	// Another account from the same address is not this pair's business.
	te.clientAt("198.51.100.7", "").login("bob")
}

// One address failing for many accounts is refused, whatever the account;
// another address is not.
func TestLoginThrottlePerAddress(t *testing.T) {
	t.Parallel()
	te := newThrottleEnv(t)
	c := te.clientAt("198.51.100.8", "")
	for i := range freePerAddress {
		if status, _ := signIn(c, "user"+strconv.Itoa(i), "nope"); status != http.StatusUnauthorized {
			t.Fatalf("attempt %d: status %d", i+1, status)
		}
	}
	if status, after := signIn(c, "carol", testPassword); status != http.StatusTooManyRequests || after != 60 {
		t.Fatalf("status %d Retry-After %d, want 429 after 60 s", status, after)
	}
	te.clientAt("198.51.100.9", "").login("carol")
}

// Behind a trusted proxy every request comes from the proxy's address;
// the client is the forwarded one, so an attacker's failures do not hold
// back the legitimate clients of the same proxy.
func TestLoginThrottleBehindTrustedProxy(t *testing.T) {
	t.Parallel()
	te := newThrottleEnv(t, func(c *Config) {
		c.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}
	})
	// The attacker forges a first hop; the proxy appends what it saw.
	attacker := te.clientAt("127.0.0.1", "192.0.2.66, 198.51.100.20")
	if got := guess(attacker, "alice", 50); got != freePerClient {
		t.Fatalf("attacker failed %d times before being refused, want %d", got, freePerClient)
	}
	for i := range freePerAddress {
		signIn(attacker, "nobody"+strconv.Itoa(i), "nope")
	}
	attacker.header.Set("X-Forwarded-For", "192.0.2.99, 198.51.100.20")
	if status, _ := signIn(attacker, "carol", testPassword); status != http.StatusTooManyRequests {
		t.Errorf("attacker rotating the forged hop: status %d, want 429", status)
	}
	if !strings.Contains(te.logs.String(), "client=198.51.100.20") {
		t.Error("the log does not name the forwarded client")
	}

	te.clientAt("127.0.0.1", "198.51.100.21").login("alice")
	rfc := te.clientAt("127.0.0.1", "")
	rfc.header.Set("Forwarded", `for="[2001:db8:cafe::17]:4711";proto=https`)
	rfc.login("alice")
}

// Without a trusted proxy the forwarding headers are the client's own
// words: rotating them does not escape the limits of its real address.
func TestLoginThrottleIgnoresUntrustedForwarding(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		trusted []netip.Prefix
	}{
		{"no trusted proxies", nil},
		{"peer not among them", []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			te := newThrottleEnv(t, func(c *Config) { c.TrustedProxies = tc.trusted })
			c := te.clientAt("198.51.100.30", "")
			for i := range freePerClient + 1 {
				c.header.Set("X-Forwarded-For", "203.0.113."+strconv.Itoa(i+1))
				c.header.Set("Forwarded", "for=203.0.114."+strconv.Itoa(i+1))
				status, _ := signIn(c, "alice", "wrong")
				if i < freePerClient && status != http.StatusUnauthorized {
					t.Fatalf("attempt %d: status %d, want 401", i+1, status)
				}
				if i == freePerClient && status != http.StatusTooManyRequests {
					t.Fatalf("attempt %d with a new forwarded address: status %d, want 429", i+1, status)
				}
			}
			if strings.Contains(te.logs.String(), "client=203.0.11") {
				t.Error("the log names a forged client address")
			}
		})
	}
}

// Failed and refused sign-ins are counted in /metrics and logged with the
// user name and client address, never the password.
func TestLoginThrottleMetrics(t *testing.T) {
	t.Parallel()
	te := newThrottleEnv(t)
	scrape := func() (failures, refused float64) {
		_, body := te.client().do(http.MethodGet, "/metrics", nil, nil)
		return metricValue(t, body, "crossrank_login_failures_total"),
			metricValue(t, body, `crossrank_login_throttled_total{limit="account_address"}`)
	}
	failures0, refused0 := scrape()
	c := te.clientAt("198.51.100.40", "")
	guess(c, "alice", freePerClient+1)
	failures, refused := scrape()
	if got, want := failures-failures0, float64(freePerClient); got != want {
		t.Errorf("crossrank_login_failures_total rose by %v, want %v", got, want)
	}
	if got := refused - refused0; got != 1 {
		t.Errorf(`crossrank_login_throttled_total{limit="account_address"} rose by %v, want 1`, got)
	}
	logs := te.logs.String()
	if !strings.Contains(logs, `msg="sign-in failed"`) || !strings.Contains(logs, "username=alice client=198.51.100.40") {
		t.Errorf("no sign-in failure with user and client in the log:\n%s", logs)
	}
	if strings.Contains(logs, "wrong 0") {
		t.Error("the log holds a password")
	}
}

// metricValue reads one sample from a Prometheus text exposition.
func metricValue(t *testing.T, body, sample string) float64 {
	t.Helper()
	for line := range strings.SplitSeq(body, "\n") {
		if v, ok := strings.CutPrefix(line, sample+" "); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				t.Fatalf("%s: %v", sample, err)
			}
			return f
		}
	}
	t.Fatalf("no %s in /metrics:\n%s", sample, body)
	return 0
}
