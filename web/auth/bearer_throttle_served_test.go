package auth_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/web"
	"github.com/crossrank/crossrank/web/auth"
	"github.com/crossrank/crossrank/web/webtest"
)

// TestBearerFailuresThrottled is issue 24's probe: 1,500 bad bearer tokens
// from one address all answered 401. Now, past 20 failures, the address
// waits (429 with Retry-After), its good token included, while another
// address's good token still works; the failures and refusals are counted
// in /metrics.
func TestBearerFailuresThrottled(t *testing.T) {
	t.Parallel()
	// The sign-in throttle's clock, moved by the test; this test signs in
	// no one with a wrong password, so the account-wide wait never comes.
	clock := webtest.NewClock(time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC))
	te := webtest.New(t, func(c *web.Config) { c.Now = clock.Now })
	ctx := webtest.Context(t)
	id, _, full, hash := auth.NewToken(te.Cmd.Now())
	if _, err := te.Cmd.IssueToken(ctx, domain.System(), domain.IssueToken{User: "bob", TokenID: id, Name: "ci", Hash: hash}); err != nil {
		t.Fatal(err)
	}
	get := func(c *webtest.Client, token string) (int, string) {
		res, _ := c.Do(http.MethodGet, "/api/v1/proposals/nope", nil, http.Header{"Authorization": {"Bearer " + token}})
		return res.StatusCode, res.Header.Get("Retry-After")
	}
	scrape := func() (failures, throttled float64) {
		_, body := te.Client().Do(http.MethodGet, "/metrics", nil, nil)
		return webtest.MetricValue(t, body, "crossrank_bearer_failures_total"), webtest.MetricValue(t, body, "crossrank_bearer_throttled_total")
	}
	failedBefore, throttledBefore := scrape()
	attacker, other := te.ClientAt("203.0.113.7", ""), te.ClientAt("203.0.113.8", "")
	wrong := full[:len(full)-1] + "x"
	if full[len(full)-1] == 'x' {
		wrong = full[:len(full)-1] + "y"
	}
	for i := range 20 {
		if status, _ := get(attacker, []string{wrong, "crk_garbage", "nope"}[i%3]); status != http.StatusUnauthorized {
			t.Fatalf("bad token %d: status %d, want 401", i+1, status)
		}
	}
	for _, token := range []string{wrong, full} {
		if status, after := get(attacker, token); status != http.StatusTooManyRequests || after != "60" {
			t.Errorf("after 20 failures: status %d, Retry-After %q; want 429, 60", status, after)
		}
	}
	if status, _ := get(other, full); status != http.StatusNotFound {
		t.Errorf("another address's good token: status %d, want 404 (signed in)", status)
	}
	clock.Advance(time.Minute)
	if status, _ := get(attacker, full); status != http.StatusNotFound {
		t.Errorf("after the wait, the good token: status %d, want 404 (signed in)", status)
	}
	failed, throttled := scrape()
	if got := failed - failedBefore; got != 20 {
		t.Errorf("crossrank_bearer_failures_total rose by %v, want 20", got)
	}
	if got := throttled - throttledBefore; got != 2 {
		t.Errorf("crossrank_bearer_throttled_total rose by %v, want 2", got)
	}
}
