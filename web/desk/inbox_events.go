package desk

import (
	"fmt"
	"net/http"
	"time"

	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/ui"
)

// The header's unread count, live: every desk page carries the count as it
// was when rendered (withUnread), and GET /desk/events streams it as it
// changes, which app.js writes into the badge. Without JavaScript the
// count is right on each page load.

// eventsHeartbeat is how often an idle stream sends a comment, so that
// proxies keep it and a dead one is noticed.
const eventsHeartbeat = 15 * time.Second

// eventsPoll bounds how long a stream waits for a commit before it asks
// again anyway: a missed wake-up costs at most this.
const eventsPoll = time.Second

// withUnread puts the signed-in user's unread inbox count on the request
// for the header; a failed count leaves the header without it.
func (d *Desk) withUnread(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if u := httpx.User(r.Context()); u != nil && d.read != nil {
			if n, err := d.read.InboxUnread(r.Context(), u.Username); err == nil {
				r = r.WithContext(ui.WithUnread(r.Context(), n))
			}
		}
		h.ServeHTTP(w, r)
	})
}

// serveEvents streams the signed-in user's unread count: "event: unread"
// with the count, first at once, then whenever the read models commit a
// change to it. One cheap count per commit and connection.
func (d *Desk) serveEvents(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	user := httpx.User(ctx).Username
	hd := w.Header()
	hd.Set("Content-Type", "text/event-stream; charset=utf-8")
	hd.Set("Cache-Control", "no-store")
	hd.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	send := func(format string, args ...any) bool {
		_ = rc.SetWriteDeadline(time.Now().Add(2 * eventsHeartbeat))
		if _, err := fmt.Fprintf(w, format, args...); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	if !send("retry: 2000\n\n") {
		return
	}
	last := -1
	beat := time.NewTicker(eventsHeartbeat)
	defer beat.Stop()
	poll := time.NewTimer(0)
	defer poll.Stop()
	for {
		changed := d.read.Changed() // before the count: a commit after it still wakes us
		n, err := d.read.InboxUnread(ctx, user)
		if err != nil && ctx.Err() != nil {
			return
		}
		if err == nil && n != last {
			if !send("event: unread\ndata: %d\n\n", n) {
				return
			}
			last = n
		}
		poll.Reset(eventsPoll)
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
