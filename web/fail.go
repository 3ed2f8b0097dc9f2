package web

import (
	"net/http"
	"strconv"
	"time"

	"github.com/crossrank/crossrank/web/httpx"
)

// fail answers a request that failed with err: problem+json on the API, an
// error page elsewhere. Server errors are logged with their cause; the user
// sees only a message and the request id.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	status := httpx.Status(err)
	rq := httpx.FromContext(r.Context())
	switch {
	case status >= 500:
		s.log.Error("request failed", "request_id", rq.ID, "status", status, "method", r.Method,
			"path", r.URL.Path, "err", err)
	case status != http.StatusNotFound:
		s.log.Info("request refused", "request_id", rq.ID, "status", status, "method", r.Method,
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
	s.renderError(w, r, status, err)
}
