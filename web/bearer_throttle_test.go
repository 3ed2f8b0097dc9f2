package web

import (
	"net/http"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/web/auth"
)

// TestBearerFailuresThrottled is issue 24's probe: 1,500 bad bearer tokens
// from one address all answered 401. Now, past 20 failures, the address
// waits (429 with Retry-After), its good token included, while another
// address's good token still works; the failures and refusals are counted
// in /metrics.
func TestBearerFailuresThrottled(t *testing.T) {
	t.Parallel()
	te := newThrottleEnv(t)
	ctx := testContext(t)
	id, _, full, hash := auth.NewToken(te.cmd.Now())
	if _, err := te.cmd.IssueToken(ctx, domain.System(), domain.IssueToken{User: "bob", TokenID: id, Name: "ci", Hash: hash}); err != nil {
		t.Fatal(err)
	}
	get := func(c *client, token string) (int, string) {
		res, _ := c.do(http.MethodGet, "/api/v1/proposals/nope", nil, http.Header{"Authorization": {"Bearer " + token}})
		return res.StatusCode, res.Header.Get("Retry-After")
	}
	scrape := func() (failures, throttled float64) {
		_, body := te.client().do(http.MethodGet, "/metrics", nil, nil)
		return metricValue(t, body, "crossrank_bearer_failures_total"), metricValue(t, body, "crossrank_bearer_throttled_total")
	}
	failedBefore, throttledBefore := scrape()
	attacker, other := te.clientAt("203.0.113.7", ""), te.clientAt("203.0.113.8", "")
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
	te.advance(time.Minute)
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
