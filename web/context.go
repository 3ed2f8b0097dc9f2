package web

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// request is what the middleware learns about a request and the handlers
// and templates read: one pointer in the context, filled in as the request
// passes the middleware.
type request struct {
	id      string       // request id, logged and shown on error pages
	nonce   string       // CSP nonce for this response
	lang    string       // "zh" or "en"
	now     time.Time    // when the request arrived (the server's clock)
	user    *domain.User // nil: signed out
	session string       // session id when signed in by cookie
	token   string       // token id when signed in by bearer token
	authErr error        // the user could not be loaded (store unavailable)
	clock   func() time.Time
	isAPI   bool   // the JSON API: errors answer as problem+json
	client  string // the client's address (Server.proxies.clientAddr)
}

type requestKey struct{}

func withRequest(ctx context.Context, rq *request) context.Context {
	ctx = context.WithValue(ctx, requestKey{}, rq)
	return templ.WithNonce(ctx, rq.nonce)
}

// requestOf returns the request's state; outside the middleware (a test
// rendering a component) it returns a signed-out English request.
func requestOf(ctx context.Context) *request {
	if rq, ok := ctx.Value(requestKey{}).(*request); ok {
		return rq
	}
	return &request{lang: langEn, clock: time.Now, now: time.Now()}
}

// userOf returns the signed-in user, or nil.
func userOf(ctx context.Context) *domain.User { return requestOf(ctx).user }

// actorOf returns the signed-in user as a command actor (zero when signed
// out), with how they signed in, which every event they cause records.
func actorOf(ctx context.Context) domain.Actor {
	rq := requestOf(ctx)
	if rq.user == nil {
		return domain.Actor{}
	}
	a := rq.user.Actor()
	switch {
	case rq.token != "":
		a.Via = events.Via{Method: events.ViaToken, TokenID: rq.token}
		if t := rq.user.Tokens[rq.token]; t != nil {
			a.Via.TokenName = t.Name
		}
	case rq.session != "":
		a.Via = events.Via{Method: events.ViaSession}
	}
	return a
}

// langOf returns the request's language, "zh" or "en".
func langOf(ctx context.Context) string { return requestOf(ctx).lang }

// nonceOf returns the CSP nonce of the response.
func nonceOf(ctx context.Context) string { return requestOf(ctx).nonce }

// requestIDOf returns the request id.
func requestIDOf(ctx context.Context) string { return requestOf(ctx).id }

// newCommandID returns a fresh command id (a UUIDv7) for a form.
func newCommandID(ctx context.Context) string {
	rq := requestOf(ctx)
	clock := rq.clock
	if clock == nil {
		clock = time.Now
	}
	return events.NewID(clock())
}

// isAPIPath reports whether the path belongs to the JSON API, which answers
// errors with problem+json instead of a page.
func isAPIPath(r *http.Request) bool { return strings.HasPrefix(r.URL.Path, pathAPI) }
