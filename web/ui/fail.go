package ui

import (
	"net/http"
	"strconv"
	"time"

	"github.com/a-h/templ"
	"github.com/crossrank/crossrank/web/httpx"
)

// Render writes a templ component as the response with status (see
// httpx.Render); a component that fails yields a clean 500 page instead of
// half a page.
func Render(w http.ResponseWriter, r *http.Request, status int, c templ.Component) {
	if err := httpx.Render(w, r, status, c); err != nil {
		Fail(w, r, err)
	}
}

// Fail answers a request that failed with err: problem+json on the API, an
// error page elsewhere. Server errors are logged with their cause; the user
// sees only a message and the request id.
func Fail(w http.ResponseWriter, r *http.Request, err error) {
	status := httpx.Status(err)
	rq := httpx.FromContext(r.Context())
	log := httpx.Log(r.Context())
	switch {
	case status >= 500:
		log.Error("request failed", "request_id", rq.ID, "status", status, "method", r.Method,
			"path", r.URL.Path, "err", err)
	case status != http.StatusNotFound:
		log.Info("request refused", "request_id", rq.ID, "status", status, "method", r.Method,
			"path", r.URL.Path, "err", err)
	}
	if after, ok := httpx.RetryAfter(err); ok {
		w.Header().Set("Retry-After", strconv.Itoa(int((after+time.Second-1)/time.Second)))
	}
	if rq.API {
		if status == http.StatusUnauthorized {
			w.Header().Set("WWW-Authenticate", `Bearer realm="crossrank"`)
		}
		httpx.WriteProblem(w, r, status, err)
		return
	}
	renderError(w, r, status, err)
}
