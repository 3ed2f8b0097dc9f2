package desk

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/crossrank/crossrank/web/ui"
)

// The desk's live streams (the header's unread count, a proposal page's
// capture results) each follow one number that changes when the read
// models commit: streamCount sends it as server-sent events.

// streamHeartbeat is how often an idle stream sends a comment, so that
// proxies keep it and a closed tab is noticed.
const streamHeartbeat = 15 * time.Second

// streamPoll bounds how long a stream waits for a commit before it asks
// again anyway: a missed wake-up costs at most this.
const streamPoll = time.Second

// streamCount sends "event: <event>" with count's value, at once unless it
// is known already, then each time it differs after a read-model commit
// (or a poll), until the client leaves or the desk closes its streams. A
// count that fails is asked again at the next wake-up.
//
// A session, and a client address, hold at most maxStreams streams at once
// (stream_limit.go); one more is refused with 429 and Retry-After.
func (d *Desk) streamCount(w http.ResponseWriter, r *http.Request, event string, known int, count func(context.Context) (int, error)) {
	ctx := r.Context()
	keys := streamKeys(r)
	release, ok := d.streams.acquire(keys...)
	if !ok {
		ui.Fail(w, r, errTooManyStreams(keys))
		return
	}
	defer release()
	h := w.Header()
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	send := func(format string, args ...any) bool {
		_ = rc.SetWriteDeadline(time.Now().Add(2 * streamHeartbeat))
		if _, err := fmt.Fprintf(w, format, args...); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	if !send("retry: 2000\n\n") {
		return
	}
	beat := time.NewTicker(streamHeartbeat)
	defer beat.Stop()
	poll := time.NewTimer(0)
	defer poll.Stop()
	for {
		changed := d.read.Changed() // before the count: a commit after it still wakes us
		n, err := count(ctx)
		if err != nil && ctx.Err() != nil {
			return
		}
		if err == nil && n != known {
			if !send("event: %s\ndata: %d\n\n", event, n) {
				return
			}
			known = n
		}
		poll.Reset(streamPoll)
		select {
		case <-ctx.Done():
			return
		case <-d.closed:
			return
		case <-changed:
		case <-poll.C:
		case <-beat.C:
			if !send(": heartbeat\n\n") {
				return
			}
		}
	}
}
