package desk

import (
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/crossrank/crossrank/web/httpx"
)

// maxStreams bounds the live streams (GET /desk/events and the proposal
// pages' capture streams) one session, and one client address, hold open
// at once. Each holds a goroutine, a connection and a wake-up on every
// read-model commit; a browser needs one per open tab, so a few tabs fit
// and a thousand connections from one session do not.
const maxStreams = 8

// streamRetry is the Retry-After of a refused stream.
const streamRetry = 30 * time.Second

// streamLimit counts the open streams per session and per client address.
type streamLimit struct {
	mu   sync.Mutex
	open map[string]int
}

// acquire takes a slot for each of keys, or none when any is full; the
// release gives them back.
func (l *streamLimit) acquire(keys ...string) (release func(), ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open == nil {
		l.open = map[string]int{}
	}
	for _, k := range keys {
		if l.open[k] >= maxStreams {
			return nil, false
		}
	}
	for _, k := range keys {
		l.open[k]++
	}
	return func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		for _, k := range keys {
			if l.open[k]--; l.open[k] <= 0 {
				delete(l.open, k)
			}
		}
	}, true
}

// streamKeys are the keys a request's stream counts against: how it
// signed in (its session, or its token) and the address it came from.
func streamKeys(r *http.Request) []string {
	rq := httpx.FromContext(r.Context())
	who := "user:" + httpx.User(r.Context()).Username
	switch {
	case rq.Session != "":
		who = "session:" + rq.Session
	case rq.Token != "":
		who = "token:" + rq.Token
	}
	return []string{who, "addr:" + rq.Client}
}

// errTooManyStreams refuses a stream beyond maxStreams.
func errTooManyStreams(keys []string) error {
	return &httpx.RetryLater{After: streamRetry,
		Err: fmt.Errorf("%w: more than %d live streams for %v", httpx.ErrTooMany, maxStreams, keys)}
}
