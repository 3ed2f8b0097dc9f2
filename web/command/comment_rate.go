package command

import (
	"fmt"
	"sync"
	"time"

	"github.com/crossrank/crossrank/web/httpx"
)

// Comment rate: each user may add CommentsPerMinute comments in any
// minute; one more is refused with 429 and Retry-After. The domain's cap
// (domain.MaxComments per proposal) bounds one proposal; this bounds how
// fast one account, or a script with its token, can fill them.
const CommentsPerMinute = 30

// Rate admits at most n actions per key in any window (a sliding window:
// the times of the last n actions per key). The zero Rate is not usable;
// see NewCommentRate.
type Rate struct {
	n      int
	window time.Duration
	mu     sync.Mutex
	recent map[string][]time.Time // oldest first, at most n
}

// NewCommentRate returns the rate comments are held to.
func NewCommentRate() *Rate {
	return &Rate{n: CommentsPerMinute, window: time.Minute, recent: map[string][]time.Time{}}
}

// take records an action of key at now, or returns the error to answer
// with when key has used its n actions in the window.
func (r *Rate) take(key string, now time.Time) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	times := r.recent[key]
	for len(times) > 0 && !now.Before(times[0].Add(r.window)) {
		times = times[1:]
	}
	if len(times) >= r.n {
		r.recent[key] = times
		return &httpx.RetryLater{After: times[0].Add(r.window).Sub(now),
			Err: fmt.Errorf("%w: more than %d comments a minute by %s", httpx.ErrTooMany, r.n, key)}
	}
	r.recent[key] = append(times, now)
	if len(r.recent) > 100_000 { // bounded memory: forget everyone idle for a window
		for k, ts := range r.recent {
			if !now.Before(ts[len(ts)-1].Add(r.window)) {
				delete(r.recent, k)
			}
		}
	}
	return nil
}
