package desk_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/web/webtest"
)

// TestDeskInboxEvents: GET /desk/events streams the signed-in user's
// unread count — at once, then when a request for their review is
// projected — and ends at CloseStreams; signed out, it is not served.
func TestDeskInboxEvents(t *testing.T) {
	t.Parallel()
	e := newDemoEnv(t)
	ts := httptest.NewServer(e.Srv.Handler())
	t.Cleanup(ts.Close)
	r1 := e.Client("reviewer1")
	id := e.Reviewable(e.Client("editor"), "ppio", demo.CritGraphics, 9)

	if res, _ := e.Client("").Do(http.MethodGet, "/desk/events", nil, nil); res.StatusCode == http.StatusOK {
		t.Errorf("signed out: %d, want no stream", res.StatusCode)
	}
	ctx, cancel := context.WithCancel(e.Ctx)
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, ts.URL+"/desk/events", nil)
	for _, ck := range r1.Cookies {
		req.AddCookie(&http.Cookie{Name: ck.Name, Value: ck.Value})
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { res.Body.Close() })
	if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("GET /desk/events: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	stream := webtest.ReadSSE(t, res)
	next := func() int {
		t.Helper()
		select {
		case ev, ok := <-stream:
			n, err := strconv.Atoi(ev.Data)
			if !ok || ev.Name != "unread" || err != nil {
				t.Fatalf("event %+v (open %v)", ev, ok)
			}
			return n
		case <-time.After(5 * time.Second):
			t.Fatal("no unread event within 5s")
		}
		return 0
	}
	before := next()
	e.MustPost(e.Client("editor"), id, "reviewers", url.Values{"reviewers": {"reviewer1"}})
	if got := next(); got != before+1 {
		t.Errorf("unread %d after the request, want %d", got, before+1)
	}

	e.Srv.CloseStreams()
	select {
	case _, ok := <-stream:
		if ok {
			t.Error("an event after CloseStreams")
		}
	case <-time.After(5 * time.Second):
		t.Error("the stream outlived CloseStreams")
	}
}
