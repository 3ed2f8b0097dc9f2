package api_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/crossrank/crossrank/web"
	"github.com/crossrank/crossrank/web/command"
	"github.com/crossrank/crossrank/web/webtest"
)

// TestCommentRate: a user adds at most 30 comments a minute; the 31st is
// refused with 429 and Retry-After and stores nothing, while another user
// still comments; a minute later the first may comment again. (The cap of
// 1,000 comments per proposal stays the domain's.)
func TestCommentRate(t *testing.T) {
	t.Parallel()
	// The sign-in throttle's clock, moved by the test; this test signs in
	// no one with a wrong password, so the account-wide wait never comes.
	clock := webtest.NewClock(time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC))
	te := webtest.New(t, func(c *web.Config) { c.Now = clock.Now })
	alice, bob := te.Client(), te.Client()
	alice.Login("alice")
	bob.Login("bob")
	id := te.Reviewable(alice, "rated")
	comment := func(c *webtest.Client, i int) *http.Response {
		res, _ := c.PostJSON("/api/v1/proposals/"+id+"/comments", map[string]any{"body": fmt.Sprintf("note %d", i)}, nil)
		return res
	}
	for i := range command.CommentsPerMinute {
		if res := comment(alice, i); res.StatusCode != http.StatusCreated {
			t.Fatalf("comment %d: status %d, want 201", i+1, res.StatusCode)
		}
	}
	before := te.LastSeq()
	if res := comment(alice, 99); res.StatusCode != http.StatusTooManyRequests || res.Header.Get("Retry-After") != "60" {
		t.Errorf("comment 31 within the minute: status %d, Retry-After %q; want 429, 60", res.StatusCode, res.Header.Get("Retry-After"))
	}
	if te.LastSeq() != before {
		t.Error("a refused comment was stored")
	}
	if res := comment(bob, 0); res.StatusCode != http.StatusCreated {
		t.Errorf("another user's comment: status %d, want 201", res.StatusCode)
	}
	clock.Advance(time.Minute)
	if res := comment(alice, 100); res.StatusCode != http.StatusCreated {
		t.Errorf("a minute later: status %d, want 201", res.StatusCode)
	}
}
