package site

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"

	"github.com/crossrank/crossrank/web/httpx"
)

// TestLiveStreamsPerClient: one client address holds at most
// StreamsPerClient live streams (GET /events); one more is refused with
// 429 and Retry-After while another address is still served, and a
// stream ended frees its place. One address held 3,000 before (issue 41
// item 4).
func TestLiveStreamsPerClient(t *testing.T) {
	s := New(Config{})
	release := make(chan struct{})
	var started sync.WaitGroup
	h := s.limitStreams(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		started.Done()
		<-release
	}))
	get := func(client string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(http.MethodGet, "/events", nil)
		r = r.WithContext(httpx.NewContext(r.Context(), &httpx.Request{Client: client}))
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	var done sync.WaitGroup
	for range StreamsPerClient {
		started.Add(1)
		done.Go(func() {
			if w := get("192.0.2.1"); w.Code != http.StatusOK {
				t.Errorf("a held stream: %d", w.Code)
			}
		})
	}
	started.Wait()
	w := get("192.0.2.1")
	if want := strconv.Itoa(int(streamRetry.Seconds())); w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") != want {
		t.Errorf("stream %d from one address: %d, Retry-After %q; want 429 and %s", StreamsPerClient+1, w.Code, w.Header().Get("Retry-After"), want)
	}
	started.Add(1)
	done.Go(func() {
		if w := get("198.51.100.7"); w.Code != http.StatusOK {
			t.Errorf("another address's stream: %d", w.Code)
		}
	})
	started.Wait()
	close(release)
	done.Wait()
	started.Add(1)
	if w := get("192.0.2.1"); w.Code != http.StatusOK {
		t.Errorf("after the streams ended: %d", w.Code)
	}
}
