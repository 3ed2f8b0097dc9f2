package api_test

import (
	"encoding/json"
	"encoding/xml"
	"net/http"
	"strings"
	"testing"

	"github.com/crossrank/crossrank/web/api"
	"github.com/crossrank/crossrank/web/webtest"
)

func (e *adminEnv) inbox(c *webtest.Client, query string) api.Inbox {
	e.T.Helper()
	res, body := c.Do(http.MethodGet, "/api/v1/inbox"+query, nil, nil)
	var in api.Inbox
	if err := json.Unmarshal([]byte(body), &in); err != nil || res.StatusCode != http.StatusOK {
		e.T.Fatalf("GET inbox: %d %v %s", res.StatusCode, err, body)
	}
	return in
}

func TestAPIInboxAndReadMark(t *testing.T) {
	t.Parallel()
	e := newAdminEnv(t)
	ed, rev := e.Client("ed"), e.Client("rev")
	if in := e.inbox(rev, ""); len(in.Items) != 0 || in.Unread != 0 {
		t.Fatalf("a new reviewer's inbox: %+v", in)
	}
	p := e.inReview()
	if res, body := ed.PostJSON("/api/v1/proposals/"+p.ID+"/reviewers", map[string]any{"reviewers": []string{"rev"}}, nil); res.StatusCode != http.StatusOK {
		t.Fatalf("request reviewers: %d %s", res.StatusCode, body)
	}
	if res, body := ed.PostJSON("/api/v1/proposals/"+p.ID+"/comments", map[string]any{"body": "Thanks for looking"}, nil); res.StatusCode != http.StatusCreated {
		t.Fatalf("comment: %d %s", res.StatusCode, body)
	}
	e.CaughtUp()
	in := e.inbox(rev, "")
	if len(in.Items) == 0 || in.Unread != len(in.Items) || in.Items[len(in.Items)-1].Kind != "review_requested" ||
		in.Items[len(in.Items)-1].Proposal != p.ID || in.Items[len(in.Items)-1].Actor != "ed" {
		t.Fatalf("rev's inbox after the request: %+v", in)
	}
	for i := 1; i < len(in.Items); i++ {
		if in.Items[i-1].Seq < in.Items[i].Seq {
			t.Errorf("not newest first: %+v", in.Items)
		}
	}
	// Keyset paging: one item a page, to the end.
	var paged []uint64
	for q := "?limit=1"; ; {
		page := e.inbox(rev, q)
		for _, it := range page.Items {
			paged = append(paged, it.Seq)
		}
		if page.Next == "" {
			break
		}
		q = "?limit=1&before=" + page.Next
	}
	if len(paged) != len(in.Items) {
		t.Errorf("paged %v, want the %d items of one page", paged, len(in.Items))
	}

	e.refuses(rev, "/api/v1/inbox/read", map[string]any{"up_to": "all"}, http.StatusBadRequest)
	oldest := in.Items[len(in.Items)-1].Seq
	if res, body := rev.PostJSON("/api/v1/inbox/read", map[string]any{"up_to": oldest}, nil); res.StatusCode != http.StatusOK {
		t.Fatalf("read: %d %s", res.StatusCode, body)
	}
	if got := e.inbox(rev, ""); got.Unread != len(in.Items)-1 || got.ReadUpTo != oldest || got.Items[len(got.Items)-1].Unread {
		t.Errorf("after marking read up to %d: unread %d, read_up_to %d", oldest, got.Unread, got.ReadUpTo)
	}
	if res, body := rev.PostJSON("/api/v1/inbox/read", map[string]any{"up_to": in.Items[0].Seq}, nil); res.StatusCode != http.StatusOK {
		t.Fatalf("read all: %d %s", res.StatusCode, body)
	}
	if got := e.inbox(rev, ""); got.Unread != 0 {
		t.Errorf("after marking all read: unread %d", got.Unread)
	}
	if res, _ := e.Client("").Do(http.MethodGet, "/api/v1/inbox", nil, nil); res.StatusCode != http.StatusUnauthorized {
		t.Errorf("signed out: status %d, want 401", res.StatusCode)
	}
}

func TestInboxFeedToken(t *testing.T) {
	t.Parallel()
	e := newAdminEnv(t)
	ed, rev, anon := e.Client("ed"), e.Client("rev"), e.Client("")
	p := e.inReview()
	if res, body := ed.PostJSON("/api/v1/proposals/"+p.ID+"/reviewers", map[string]any{"reviewers": []string{"rev"}}, nil); res.StatusCode != http.StatusOK {
		t.Fatalf("request reviewers: %d %s", res.StatusCode, body)
	}
	if res, _ := anon.Do(http.MethodGet, "/feeds/inbox/rev.atom?token=guess", nil, nil); res.StatusCode != http.StatusNotFound {
		t.Errorf("no token issued: status %d, want 404", res.StatusCode)
	}
	res, body := rev.PostJSON("/api/v1/inbox/feed-token", map[string]any{}, nil)
	var ft api.FeedToken
	if err := json.Unmarshal([]byte(body), &ft); err != nil || res.StatusCode != http.StatusCreated || len(ft.Token) < 40 {
		t.Fatalf("feed token: %d %v %s", res.StatusCode, err, body)
	}
	if want := "/feeds/inbox/rev.atom?token=" + ft.Token; ft.Feed != want {
		t.Errorf("feed %q, want %q", ft.Feed, want)
	}
	e.CaughtUp()
	res, body = anon.Do(http.MethodGet, ft.Feed, nil, nil)
	if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/atom+xml") {
		t.Fatalf("feed: %d %q %.300s", res.StatusCode, res.Header.Get("Content-Type"), body)
	}
	var feed struct {
		Entries []struct {
			ID    string `xml:"id"`
			Title string `xml:"title"`
		} `xml:"entry"`
	}
	if err := xml.Unmarshal([]byte(body), &feed); err != nil || len(feed.Entries) == 0 ||
		!strings.Contains(feed.Entries[len(feed.Entries)-1].Title, "ed asked you to review proposal "+p.ID) {
		t.Errorf("feed entries %+v (%v)", feed.Entries, err)
	}
	for _, target := range []string{
		"/feeds/inbox/rev.atom?token=" + ft.Token[:len(ft.Token)-1] + "x",
		"/feeds/inbox/ed.atom?token=" + ft.Token,
		"/feeds/inbox/rev?token=" + ft.Token,
		"/feeds/inbox/rev.atom",
	} {
		if res, _ := anon.Do(http.MethodGet, target, nil, nil); res.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s: status %d, want 404", target, res.StatusCode)
		}
	}
	// A new token replaces the old; revoking leaves none.
	res, body = rev.PostJSON("/api/v1/inbox/feed-token", map[string]any{}, nil)
	var ft2 api.FeedToken
	if err := json.Unmarshal([]byte(body), &ft2); err != nil || res.StatusCode != http.StatusCreated || ft2.Token == ft.Token {
		t.Fatalf("second token: %d %s", res.StatusCode, body)
	}
	if res, _ := anon.Do(http.MethodGet, ft.Feed, nil, nil); res.StatusCode != http.StatusNotFound {
		t.Errorf("the replaced token: status %d, want 404", res.StatusCode)
	}
	if res, body := rev.Do(http.MethodDelete, "/api/v1/inbox/feed-token", nil, nil); res.StatusCode != http.StatusNoContent {
		t.Fatalf("revoke: %d %s", res.StatusCode, body)
	}
	if res, _ := anon.Do(http.MethodGet, ft2.Feed, nil, nil); res.StatusCode != http.StatusNotFound {
		t.Errorf("the revoked token: status %d, want 404", res.StatusCode)
	}
}
