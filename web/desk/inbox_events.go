package desk

import (
	"context"
	"net/http"

	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/ui"
)

// The header's unread count, live: every desk page carries the count as it
// was when rendered (withUnread), and GET /desk/events streams it as it
// changes, which app.js writes into the badge. Without JavaScript the
// count is right on each page load.

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
	user := httpx.User(r.Context()).Username
	d.streamCount(w, r, "unread", -1, func(ctx context.Context) (int, error) { return d.read.InboxUnread(ctx, user) })
}
