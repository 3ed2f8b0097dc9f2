package desk

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/ui"
)

// captureHeartbeat is how often an idle capture stream sends a comment, so
// proxies keep it and a closed tab is noticed.
const captureHeartbeat = 15 * time.Second

// CaptureEventsPath is the stream telling a proposal's page that a capture
// result arrived; settled is how many items had one when the page was
// rendered, so a result projected in between is not missed.
func CaptureEventsPath(proposal string, settled int) string {
	return "/desk/proposals/" + url.PathEscape(proposal) + "/captures?settled=" + strconv.Itoa(settled)
}

// serveCaptureEvents serves GET /desk/proposals/{id}/captures to signed-in
// users: server-sent events, one "capture" each time the number of the
// proposal's evidence items with a capture result differs from the last
// one the page knows (?settled=). It checks at each commit of the read
// models, so it says so once the result is projected and the page reloaded
// would show it. The desk's script then fetches the page again; without
// script, the page says "capturing…" until it is reloaded.
func (d *Desk) serveCaptureEvents(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	id := r.PathValue("id")
	if !events.ValidID(id) {
		ui.Fail(w, r, domain.ErrProposalMissing)
		return
	}
	if _, err := d.read.Proposal(ctx, id); err != nil {
		ui.Fail(w, r, err)
		return
	}
	known, err := strconv.Atoi(r.URL.Query().Get("settled"))
	if err != nil {
		known = -1 // unknown: tell the page at once
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	send := func(msg string) bool {
		_ = rc.SetWriteDeadline(time.Now().Add(2 * captureHeartbeat))
		if _, err := io.WriteString(w, msg); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	if !send("retry: 2000\n\n") {
		return
	}
	tick := time.NewTicker(captureHeartbeat)
	defer tick.Stop()
	for {
		changed := d.read.Changed() // before the query: a commit after it still wakes us
		n, err := d.read.CapturesSettled(ctx, id)
		if err != nil {
			return
		}
		if n != known {
			known = n
			if !send(fmt.Sprintf("event: capture\ndata: %d\n\n", n)) {
				return
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-d.closed:
			return
		case <-changed:
		case <-tick.C:
			if !send(": ping\n\n") {
				return
			}
		}
	}
}
