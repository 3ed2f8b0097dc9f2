package webtest

import (
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Clock is a clock the test moves: give its Now to web.Config.Now.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// NewClock returns a clock standing at start.
func NewClock(start time.Time) *Clock { return &Clock{now: start} }

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock on by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// ClientAt returns a client whose connection comes from addr; forwarded,
// when not empty, is sent as X-Forwarded-For.
func (e *Env) ClientAt(addr, forwarded string) *Client {
	c := e.Client()
	c.Peer = addr + ":40000"
	if forwarded != "" {
		c.Header.Set("X-Forwarded-For", forwarded)
	}
	return c
}

// MetricValue reads one sample from a Prometheus text exposition.
func MetricValue(t *testing.T, body, sample string) float64 {
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
