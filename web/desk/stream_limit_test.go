package desk_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/crossrank/crossrank/web/webtest"
)

// TestDeskStreamsCapped is issue 24's probe: 1,000 connections on
// /desk/events from one session were all accepted. Now a session holds at
// most 8 live streams, and so does a client address; one more is refused
// with 429 and Retry-After.
func TestDeskStreamsCapped(t *testing.T) {
	t.Parallel()
	e := newAdminEnv(t)
	ts := httptest.NewServer(e.Srv.Handler())
	t.Cleanup(ts.Close)
	ctx, cancel := context.WithCancel(e.Ctx)
	t.Cleanup(cancel)
	open := func(c *webtest.Client) *http.Response {
		t.Helper()
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, ts.URL+"/desk/events", nil)
		for _, ck := range c.Cookies {
			req.AddCookie(&http.Cookie{Name: ck.Name, Value: ck.Value})
		}
		res, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { res.Body.Close() })
		return res
	}
	ed := e.Client("ed")
	for i := range 8 {
		if res := open(ed); res.StatusCode != http.StatusOK {
			t.Fatalf("stream %d: status %d, want 200", i+1, res.StatusCode)
		}
	}
	if res := open(ed); res.StatusCode != http.StatusTooManyRequests || res.Header.Get("Retry-After") == "" {
		t.Errorf("a 9th stream of one session: status %d, Retry-After %q; want 429 with Retry-After", res.StatusCode, res.Header.Get("Retry-After"))
	}
	// Another session from the same address: the address is full too.
	if res := open(e.Client("rev")); res.StatusCode != http.StatusTooManyRequests {
		t.Errorf("a stream of another session from the same address: status %d, want 429", res.StatusCode)
	}
}
