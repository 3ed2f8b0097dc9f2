package httpx

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// Error is an error the web layer raises itself. Its code is the catalog
// key of the words users read; msg is for logs. An error that is a case of
// another (a 415 of ErrMediaType) wraps it as its kind.
type Error struct {
	code, msg string
	kind      error
}

// NewError returns an error with the catalog key code, the log message msg
// and, when it is a case of another error (a 403 of domain.ErrForbidden),
// that kind; nil: the error is its own kind.
func NewError(code, msg string, kind error) *Error { return &Error{code: code, msg: msg, kind: kind} }

func (e *Error) Error() string {
	if e.kind == nil {
		return e.msg
	}
	return e.kind.Error() + ": " + e.msg
}

func (e *Error) Unwrap() error { return e.kind }

// Code returns the catalog key of the error's words.
func (e *Error) Code() string { return e.code }

// Errors the web layer raises itself; domain and store errors keep their own.
var (
	ErrMalformed       = &Error{code: "request.malformed", msg: "the request could not be read"}
	ErrUnauthenticated = &Error{code: "auth.required", msg: "sign-in required"}
	ErrBadCredentials  = &Error{code: "auth.bad_credentials", msg: "wrong username or password"}
	ErrCrossOrigin     = &Error{code: "request.cross_origin", msg: "cross-origin request refused"}
	ErrNoRoute         = &Error{code: "request.no_route", msg: "no such page"}
	ErrMethod          = &Error{code: "request.method", msg: "method not allowed"}
	ErrMediaType       = &Error{code: "request.media_type", msg: "unsupported content type"}
	ErrTooMany         = &Error{code: "request.too_many", msg: "too many attempts"}
	// ErrPanic has no words of its own: users read those for an
	// unexpected error.
	ErrPanic = errors.New("internal error")
)

// The two 415s name what the address does accept: the JSON API takes only
// application/json, the HTML forms only a urlencoded form.
var (
	ErrNotJSON = &Error{code: "request.not_json", msg: "the API accepts application/json", kind: ErrMediaType}
	ErrNotForm = &Error{code: "request.not_form", msg: "a form accepts application/x-www-form-urlencoded", kind: ErrMediaType}
)

// Malformed wraps ErrMalformed with what was wrong.
func Malformed(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrMalformed, fmt.Sprintf(format, args...))
}

// BadField is a field of a request that does not have the right shape (a
// string where a number belongs): the request is malformed (400), and the
// problem names the field. Code and Args are those of a domain.FieldError.
type BadField struct {
	Field, Code string
	Args        domain.Args
}

func (e *BadField) Error() string { return e.Field + ": " + e.Code }
func (e *BadField) Unwrap() error { return ErrMalformed }

// FieldError returns the field error that puts e into words.
func (e *BadField) FieldError() *domain.FieldError {
	return &domain.FieldError{Field: e.Field, Code: e.Code, Args: e.Args}
}

// RetryLater is an error the client may retry after a while (429, 503).
type RetryLater struct {
	Err   error
	After time.Duration
}

func (e *RetryLater) Error() string { return e.Err.Error() }
func (e *RetryLater) Unwrap() error { return e.Err }

// UnavailableRetry is the Retry-After sent when the event store is down.
const UnavailableRetry = 5 * time.Second

// Status maps an error to its HTTP status. It is the one place that does:
// pages, forms and the JSON API all answer through it.
func Status(err error) int {
	var tooBig *http.MaxBytesError
	switch {
	case err == nil:
		return http.StatusOK
	case errors.As(err, &tooBig), errors.Is(err, events.ErrTooLarge):
		return http.StatusRequestEntityTooLarge
	case errors.Is(err, ErrMalformed):
		return http.StatusBadRequest
	case errors.Is(err, ErrUnauthenticated), errors.Is(err, ErrBadCredentials):
		return http.StatusUnauthorized
	case errors.Is(err, domain.ErrForbidden), errors.Is(err, ErrCrossOrigin):
		return http.StatusForbidden
	case errors.Is(err, domain.ErrNotFound), errors.Is(err, ErrNoRoute):
		return http.StatusNotFound
	case errors.Is(err, ErrMethod):
		return http.StatusMethodNotAllowed
	case errors.Is(err, ErrMediaType):
		return http.StatusUnsupportedMediaType
	case errors.Is(err, domain.ErrInvalid):
		return http.StatusUnprocessableEntity
	case errors.Is(err, domain.ErrState), errors.Is(err, events.ErrConflict):
		return http.StatusConflict
	case errors.Is(err, ErrTooMany):
		return http.StatusTooManyRequests
	case errors.Is(err, events.ErrStorageFull):
		return http.StatusInsufficientStorage
	case errors.Is(err, events.ErrUnavailable), errors.Is(err, context.DeadlineExceeded):
		return http.StatusServiceUnavailable
	case errors.Is(err, context.Canceled):
		// The client went away; nginx's 499 says so in logs, and nobody
		// reads the answer.
		return 499
	}
	return http.StatusInternalServerError
}

// RetryAfter returns how long a client should wait before retrying err.
func RetryAfter(err error) (time.Duration, bool) {
	var rl *RetryLater
	if errors.As(err, &rl) {
		return rl.After, true
	}
	if s := Status(err); s == http.StatusServiceUnavailable || s == http.StatusInsufficientStorage {
		return UnavailableRetry, true
	}
	return 0, false
}
