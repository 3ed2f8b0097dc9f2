package desk

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/ui"
)

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
	d.streamCount(w, r, "capture", known, func(ctx context.Context) (int, error) { return d.read.CapturesSettled(ctx, id) })
}
