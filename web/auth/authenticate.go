package auth

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/paths"
	"github.com/crossrank/crossrank/web/ui"
)

// Authenticate finds who is asking: a bearer token when the request has an
// Authorization header, else the session cookie. A cookie that does not
// decode, or whose session ended, is being signed out — the request goes
// on without a user and the stale cookie is dropped. A bearer token that
// does not verify is refused at once: a client that sends one expects it to
// count. Failed tokens slow down the address they came from (429 with
// Retry-After, bearer_throttle.go).
func (s *Service) Authenticate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rq := httpx.FromContext(r.Context())
		if strings.HasPrefix(r.URL.Path, "/static/") || r.URL.Path == "/healthz" || r.URL.Path == "/readyz" {
			next.ServeHTTP(w, r) // no user needed; spare the store a lookup
			return
		}
		if tok, present := bearerToken(r.Header.Get("Authorization")); present {
			if after, refused := s.limiter.bearerRefused(rq.Client, rq.Now); refused {
				s.meter.BearerThrottled()
				ui.Fail(w, r, &httpx.RetryLater{After: after,
					Err: fmt.Errorf("%w: bearer tokens from %s failed too often", httpx.ErrTooMany, rq.Client)})
				return
			}
			u, id, err := s.userByToken(r.Context(), tok, rq.Now)
			if errors.Is(err, httpx.ErrUnauthenticated) {
				s.limiter.bearerFail(rq.Client, rq.Now)
				s.meter.BearerFailed()
			}
			if err != nil {
				ui.Fail(w, r, err)
				return
			}
			rq.User, rq.Token = u, id
			next.ServeHTTP(w, r)
			return
		}
		if _, err := r.Cookie(CookieName); err != nil {
			next.ServeHTTP(w, r)
			return
		}
		sid := s.sessions.sessionID(r)
		name, password, live := s.sessions.reg.find(r.Context(), sid, rq.Now)
		if !live {
			s.sessions.clearCookie(w)
			next.ServeHTTP(w, r)
			return
		}
		via := s.sessions.reg.via(sid)
		u, err := s.users.User(r.Context(), name)
		switch {
		case errors.Is(err, domain.ErrNotFound), err == nil && passwordDigest(sessionCredential(u, via)) != password:
			// The account is gone, or its password changed since this
			// session opened (here, on another replica or with the CLI),
			// or it is no longer bound to the provider's subject it
			// signed in as.
			s.endSession(r, sid)
			s.sessions.clearCookie(w)
		case err != nil:
			// The store is down: keep the session, but pages that need the
			// user answer 503 rather than sending them to sign in again.
			rq.AuthErr = err
		default:
			rq.User, rq.Session, rq.SessionVia = u, sid, via
		}
		next.ServeHTTP(w, r)
	})
}

// RequireUser lets only signed-in users through. Others are sent to sign in
// (pages) or answered 401 (the API).
func (s *Service) RequireUser(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.signedIn(w, r) {
			h.ServeHTTP(w, r)
		}
	})
}

// RequireRole lets only signed-in users holding role through; others get
// 403. The domain checks roles again on every command: this guard only
// keeps pages from showing forms a user cannot use.
func (s *Service) RequireRole(role string, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.signedIn(w, r) {
			return
		}
		if !httpx.User(r.Context()).Actor().Has(role) {
			ui.Fail(w, r, fmt.Errorf("%w: needs %s", domain.ErrRoleRequired, role))
			return
		}
		h.ServeHTTP(w, r)
	})
}

// signedIn reports whether the request has a user; if not, it has answered.
func (s *Service) signedIn(w http.ResponseWriter, r *http.Request) bool {
	rq := httpx.FromContext(r.Context())
	switch {
	case rq.User != nil:
		return true
	case rq.AuthErr != nil:
		ui.Fail(w, r, rq.AuthErr)
	case rq.API || r.Method != http.MethodGet:
		ui.Fail(w, r, httpx.ErrUnauthenticated)
	default:
		http.Redirect(w, r, paths.LoginURL(r.URL.RequestURI()), http.StatusSeeOther)
	}
	return false
}

// safeNext returns next when it is a path on this site, else the desk: a
// sign-in link must never redirect to another site.
func safeNext(next string) string {
	if next == "" || len(next) > 2000 || next[0] != '/' || len(next) > 1 && (next[1] == '/' || next[1] == '\\') {
		return paths.Desk
	}
	u, err := url.Parse(next)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil {
		return paths.Desk
	}
	for _, r := range next {
		if r < 0x20 || r == 0x7f || r == '\\' {
			return paths.Desk
		}
	}
	return next
}
