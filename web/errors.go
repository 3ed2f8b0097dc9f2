package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// webError is an error the web layer raises itself. Its code is the
// catalog key of the words users read; msg is for logs. An error that is a
// case of another (a 415 of errMediaType) wraps it as its kind.
type webError struct {
	code, msg string
	kind      error
}

func (e *webError) Error() string {
	if e.kind == nil {
		return e.msg
	}
	return e.kind.Error() + ": " + e.msg
}

func (e *webError) Unwrap() error { return e.kind }

// Code returns the catalog key of the error's words.
func (e *webError) Code() string { return e.code }

// Errors the web layer raises itself; domain and store errors keep their own.
var (
	errMalformed       = &webError{code: "request.malformed", msg: "the request could not be read"}
	errUnauthenticated = &webError{code: "auth.required", msg: "sign-in required"}
	errBadCredentials  = &webError{code: "auth.bad_credentials", msg: "wrong username or password"}
	errCrossOrigin     = &webError{code: "request.cross_origin", msg: "cross-origin request refused"}
	errNoRoute         = &webError{code: "request.no_route", msg: "no such page"}
	errMethod          = &webError{code: "request.method", msg: "method not allowed"}
	errMediaType       = &webError{code: "request.media_type", msg: "unsupported content type"}
	errTooMany         = &webError{code: "request.too_many", msg: "too many attempts"}
	// errPanic has no words of its own: users read those for an
	// unexpected error.
	errPanic = errors.New("internal error")
)

// The two 415s name what the address does accept: the JSON API takes only
// application/json, the HTML forms only a urlencoded form.
var (
	errNotJSON = &webError{code: "request.not_json", msg: "the API accepts application/json", kind: errMediaType}
	errNotForm = &webError{code: "request.not_form", msg: "a form accepts application/x-www-form-urlencoded", kind: errMediaType}
)

// malformed wraps errMalformed with what was wrong.
func malformed(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errMalformed, fmt.Sprintf(format, args...))
}

// badField is a field of a request that does not have the right shape (a
// string where a number belongs): the request is malformed (400), and the
// problem names the field. Code and Args are those of a domain.FieldError.
type badField struct {
	Field, Code string
	Args        domain.Args
}

func (e *badField) Error() string { return e.Field + ": " + e.Code }
func (e *badField) Unwrap() error { return errMalformed }

// fieldError returns the field error that puts e into words.
func (e *badField) fieldError() *domain.FieldError {
	return &domain.FieldError{Field: e.Field, Code: e.Code, Args: e.Args}
}

// retryLater is an error the client may retry after a while (429, 503).
type retryLater struct {
	err   error
	after time.Duration
}

func (e *retryLater) Error() string { return e.err.Error() }
func (e *retryLater) Unwrap() error { return e.err }

// unavailableRetry is the Retry-After sent when the event store is down.
const unavailableRetry = 5 * time.Second

// statusOf maps an error to its HTTP status. It is the one place that does:
// pages, forms and the JSON API all answer through it.
func statusOf(err error) int {
	var tooBig *http.MaxBytesError
	switch {
	case err == nil:
		return http.StatusOK
	case errors.As(err, &tooBig), errors.Is(err, events.ErrTooLarge):
		return http.StatusRequestEntityTooLarge
	case errors.Is(err, errMalformed):
		return http.StatusBadRequest
	case errors.Is(err, errUnauthenticated), errors.Is(err, errBadCredentials):
		return http.StatusUnauthorized
	case errors.Is(err, domain.ErrForbidden), errors.Is(err, errCrossOrigin):
		return http.StatusForbidden
	case errors.Is(err, domain.ErrNotFound), errors.Is(err, errNoRoute):
		return http.StatusNotFound
	case errors.Is(err, errMethod):
		return http.StatusMethodNotAllowed
	case errors.Is(err, errMediaType):
		return http.StatusUnsupportedMediaType
	case errors.Is(err, domain.ErrInvalid):
		return http.StatusUnprocessableEntity
	case errors.Is(err, domain.ErrState), errors.Is(err, events.ErrConflict):
		return http.StatusConflict
	case errors.Is(err, errTooMany):
		return http.StatusTooManyRequests
	case errors.Is(err, events.ErrUnavailable), errors.Is(err, context.DeadlineExceeded):
		return http.StatusServiceUnavailable
	case errors.Is(err, context.Canceled):
		// The client went away; nginx's 499 says so in logs, and nobody
		// reads the answer.
		return 499
	}
	return http.StatusInternalServerError
}

// retryAfterOf returns how long a client should wait before retrying err.
func retryAfterOf(err error) (time.Duration, bool) {
	var rl *retryLater
	if errors.As(err, &rl) {
		return rl.after, true
	}
	if statusOf(err) == http.StatusServiceUnavailable {
		return unavailableRetry, true
	}
	return 0, false
}

// fail answers a request that failed with err: problem+json on the API, an
// error page elsewhere. Server errors are logged with their cause; the user
// sees only a message and the request id.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	status := statusOf(err)
	rq := requestOf(r.Context())
	switch {
	case status >= 500:
		s.log.Error("request failed", "request_id", rq.id, "status", status, "method", r.Method,
			"path", r.URL.Path, "err", err)
	case status != http.StatusNotFound:
		s.log.Info("request refused", "request_id", rq.id, "status", status, "method", r.Method,
			"path", r.URL.Path, "err", err)
	}
	if after, ok := retryAfterOf(err); ok {
		w.Header().Set("Retry-After", strconv.Itoa(int((after+time.Second-1)/time.Second)))
	}
	if rq.isAPI {
		if status == http.StatusUnauthorized {
			w.Header().Set("WWW-Authenticate", `Bearer realm="crossrank"`)
		}
		writeProblem(w, r, status, err)
		return
	}
	s.renderError(w, r, status, err)
}
