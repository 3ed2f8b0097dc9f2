package ui

import (
	"net/http"
	"strings"

	"github.com/crossrank/crossrank/web/httpx"
)

// Problems marks the requests h answers as read by programs rather than
// people (a download, a .json document, an archive): Fail answers their
// errors with problem+json, as it does the JSON API's, and not with an
// error page. Wrap it around every other wrapper of the route, so that
// theirs (503 without read models, 404 for an edition number written
// twice) answer as problems too.
func Problems(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		httpx.FromContext(r.Context()).API = true
		h.ServeHTTP(w, r)
	})
}

// ProblemsUnlessHTML is Problems for a route that people and programs
// both post to, such as the links of a mail: a browser, which asks for
// text/html, gets an error page; a mail client's one-click unsubscribe
// (RFC 8058), which does not, gets a problem.
func ProblemsUnlessHTML(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("Vary", "Accept")
		if !strings.Contains(r.Header.Get("Accept"), "text/html") {
			httpx.FromContext(r.Context()).API = true
		}
		h.ServeHTTP(w, r)
	})
}
