package web

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/crossrank/crossrank/web/command"
)

// TestCommentRate: a user adds at most 30 comments a minute; the 31st is
// refused with 429 and Retry-After and stores nothing, while another user
// still comments; a minute later the first may comment again. (The cap of
// 1,000 comments per proposal stays the domain's.)
func TestCommentRate(t *testing.T) {
	t.Parallel()
	te := newThrottleEnv(t)
	alice, bob := te.client(), te.client()
	alice.login("alice")
	bob.login("bob")
	id := te.reviewable(alice, "rated")
	comment := func(c *client, i int) *http.Response {
		res, _ := c.postJSON("/api/v1/proposals/"+id+"/comments", map[string]any{"body": fmt.Sprintf("note %d", i)}, nil)
		return res
	}
	for i := range command.CommentsPerMinute {
		if res := comment(alice, i); res.StatusCode != http.StatusCreated {
			t.Fatalf("comment %d: status %d, want 201", i+1, res.StatusCode)
		}
	}
	before := te.lastSeq()
	if res := comment(alice, 99); res.StatusCode != http.StatusTooManyRequests || res.Header.Get("Retry-After") != "60" {
		t.Errorf("comment 31 within the minute: status %d, Retry-After %q; want 429, 60", res.StatusCode, res.Header.Get("Retry-After"))
	}
	if te.lastSeq() != before {
		t.Error("a refused comment was stored")
	}
	if res := comment(bob, 0); res.StatusCode != http.StatusCreated {
		t.Errorf("another user's comment: status %d, want 201", res.StatusCode)
	}
	te.advance(time.Minute)
	if res := comment(alice, 100); res.StatusCode != http.StatusCreated {
		t.Errorf("a minute later: status %d, want 201", res.StatusCode)
	}
}
