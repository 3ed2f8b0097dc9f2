package site

import (
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/httpx"
)

// slots shares what every reader draws on (archived bodies being sent,
// live streams) fairly among client addresses: at most total at once
// (0: no bound in all), and at most perClient for any one address, so
// one client cannot hold what everyone shares.
type slots struct {
	what      string        // what a slot holds, for the refusal's log
	total     int           // 0: no bound in all
	perClient int           // the bound per client address
	retry     time.Duration // Retry-After of a refusal
	mu        sync.Mutex
	used      int
	held      map[string]int
}

func newSlots(what string, total, perClient int, retry time.Duration) *slots {
	return &slots{what: what, total: total, perClient: perClient, retry: retry, held: map[string]int{}}
}

// acquire takes a slot for the request's client address and returns its
// release; or an error to answer with: 429 when the address holds its
// share already, 503 when all are taken by others.
func (s *slots) acquire(r *http.Request) (release func(), err error) {
	client := httpx.FromContext(r.Context()).Client
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.held[client] >= s.perClient:
		return nil, &httpx.RetryLater{After: s.retry,
			Err: fmt.Errorf("%w: %s holds %d %s already", httpx.ErrTooMany, client, s.perClient, s.what)}
	case s.total > 0 && s.used >= s.total:
		return nil, &httpx.RetryLater{After: s.retry,
			Err: fmt.Errorf("site: %d %s at once already: %w", s.total, s.what, events.ErrUnavailable)}
	}
	s.used++
	s.held[client]++
	var once sync.Once
	return func() {
		once.Do(func() {
			s.mu.Lock()
			defer s.mu.Unlock()
			s.used--
			if s.held[client]--; s.held[client] <= 0 {
				delete(s.held, client)
			}
		})
	}, nil
}

// A reader must take each chunk of a streamed body within sendTimeout, or
// the connection is cut and its slot freed: a reader slower than a chunk
// in that time (3.2 KB/s) holds a slot no longer than one chunk's wait.
const (
	sendChunk   = 32 << 10
	sendTimeout = 10 * time.Second
)

// deadlineWriter writes a response a chunk at a time, each under a fresh
// write deadline (http.ResponseController.SetWriteDeadline). A writer
// that cannot set one (a test's recorder) writes without.
type deadlineWriter struct {
	w  http.ResponseWriter
	rc *http.ResponseController
}

func newDeadlineWriter(w http.ResponseWriter) *deadlineWriter {
	return &deadlineWriter{w: w, rc: http.NewResponseController(w)}
}

func (d *deadlineWriter) Write(p []byte) (int, error) {
	n := 0
	for len(p) > 0 {
		c := min(len(p), sendChunk)
		_ = d.rc.SetWriteDeadline(time.Now().Add(sendTimeout))
		m, err := d.w.Write(p[:c])
		n += m
		if err != nil {
			return n, err
		}
		p = p[c:]
	}
	return n, nil
}

// close flushes what is buffered under the last deadline, then lifts it:
// the connection may carry the client's next request.
func (d *deadlineWriter) close() {
	_ = d.rc.SetWriteDeadline(time.Now().Add(sendTimeout))
	_ = d.rc.Flush()
	_ = d.rc.SetWriteDeadline(time.Time{})
}
