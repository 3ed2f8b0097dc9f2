// Package httpx holds what every area of the web layer shares about a
// request: its state in the context (id, language, client, the signed-in
// user), the mapping of errors to status codes, problem+json, body limits
// and the decoding of JSON bodies and forms, and rendering a templ
// component. It knows nothing of pages, sign-in or routes.
package httpx

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/i18n"
)

// APIPrefix starts every path of the JSON API, which answers errors with
// problem+json instead of a page.
const APIPrefix = "/api/"

// Request is what the middleware learns about a request and the handlers
// and templates read: one pointer in the context, filled in as the request
// passes the middleware (web.New's chain; the auth middleware sets the
// user). The zero value is a signed-out request.
type Request struct {
	ID      string       // request id, logged and shown on error pages
	Nonce   string       // CSP nonce for this response
	Lang    string       // "zh" or "en"
	Now     time.Time    // when the request arrived (the server's clock)
	User    *domain.User // nil: signed out
	Session string       // session id when signed in by cookie
	// SessionVia is how the session was opened when not with a password
	// (through the OpenID Provider); zero: a password.
	SessionVia events.Via
	Token      string // token id when signed in by bearer token
	AuthErr    error  // the user could not be loaded (store unavailable)
	Clock      func() time.Time
	API        bool         // the JSON API: errors answer as problem+json
	Client     string       // the client's address (see auth.Proxies)
	Log        *slog.Logger // nil: slog.Default()
}

type requestKey struct{}

// NewContext returns ctx carrying rq, and rq's nonce for templ.
func NewContext(ctx context.Context, rq *Request) context.Context {
	ctx = context.WithValue(ctx, requestKey{}, rq)
	return templ.WithNonce(ctx, rq.Nonce)
}

// FromContext returns the request's state; outside the middleware (a test
// rendering a component) it returns a signed-out English request.
func FromContext(ctx context.Context) *Request {
	if rq, ok := ctx.Value(requestKey{}).(*Request); ok {
		return rq
	}
	return &Request{Lang: i18n.En, Clock: time.Now, Now: time.Now()}
}

// User returns the signed-in user, or nil.
func User(ctx context.Context) *domain.User { return FromContext(ctx).User }

// Actor returns the signed-in user as a command actor (zero when signed
// out), with how they signed in, which every event they cause records.
func Actor(ctx context.Context) domain.Actor {
	rq := FromContext(ctx)
	if rq.User == nil {
		return domain.Actor{}
	}
	a := rq.User.Actor()
	switch {
	case rq.Token != "":
		a.Via = events.Via{Method: events.ViaToken, TokenID: rq.Token}
		if t := rq.User.Tokens[rq.Token]; t != nil {
			a.Via.TokenName = t.Name
		}
	case rq.Session != "" && !rq.SessionVia.IsZero():
		a.Via = rq.SessionVia
	case rq.Session != "":
		a.Via = events.Via{Method: events.ViaSession}
	}
	return a
}

// Lang returns the request's language, "zh" or "en".
func Lang(ctx context.Context) string { return FromContext(ctx).Lang }

// Nonce returns the CSP nonce of the response.
func Nonce(ctx context.Context) string { return FromContext(ctx).Nonce }

// RequestID returns the request id.
func RequestID(ctx context.Context) string { return FromContext(ctx).ID }

// Now returns when the request arrived, by the server's clock.
func Now(ctx context.Context) time.Time { return FromContext(ctx).Now }

// Log returns the server's logger.
func Log(ctx context.Context) *slog.Logger {
	if l := FromContext(ctx).Log; l != nil {
		return l
	}
	return slog.Default()
}

// NewCommandID returns a fresh command id (a UUIDv7) for a form.
func NewCommandID(ctx context.Context) string {
	clock := FromContext(ctx).Clock
	if clock == nil {
		clock = time.Now
	}
	return events.NewID(clock())
}

// IsAPI reports whether the path belongs to the JSON API.
func IsAPI(r *http.Request) bool { return strings.HasPrefix(r.URL.Path, APIPrefix) }
