package auth

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/i18n"
	"github.com/crossrank/crossrank/web/paths"
	"github.com/crossrank/crossrank/web/ui"
)

// loginPageGet shows the sign-in form.
func (s *Service) loginPageGet(w http.ResponseWriter, r *http.Request) {
	v := LoginForm{Next: safeNext(r.URL.Query().Get("next")), SignedOut: r.URL.Query().Get("out") == "1",
		Welcome: r.URL.Query().Get("welcome") == "1"}
	s.renderLogin(w, r, http.StatusOK, v)
}

// loginSubmit signs a user in. A failure says only that the username or
// password is wrong — whether the account exists stays hidden, and an
// unknown user costs the same argon2 check as a known one. Failures slow
// down the client that made them, per account and per address (429 with
// Retry-After, see loginLimiter), and an account guessed at from many
// places answers a little later; a client that did not fail is never
// refused.
func (s *Service) loginSubmit(w http.ResponseWriter, r *http.Request) {
	f, err := httpx.ParseForm(r)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	rq := httpx.FromContext(r.Context())
	now := rq.Now
	username := strings.ToLower(strings.TrimSpace(f.Str("username")))
	v := LoginForm{Username: username, Next: safeNext(f.Str("next")), Submitted: true}
	lang := rq.Lang
	if s.noPasswords {
		// Turned off by the operator: the provider is the way in. Nothing
		// is checked, so the answer says nothing about the account.
		v.Error = i18n.T(lang, "login.passwords_off", s.oidc.name)
		s.renderLogin(w, r, http.StatusForbidden, v)
		return
	}
	if len(v.Username) > 64 {
		v.Username = v.Username[:64]
	}
	if after, limit, refused := s.limiter.refused(v.Username, rq.Client, now); refused {
		s.meter.LoginThrottled(limit)
		s.log.Warn("sign-in throttled", "request_id", rq.ID, "username", v.Username, "client", rq.Client,
			"limit", limit, "retry_after", after.Round(time.Second))
		w.Header().Set("Retry-After", retrySeconds(after))
		v.Error = i18n.T(lang, "login.too_many", waitText(lang, after))
		s.renderLogin(w, r, http.StatusTooManyRequests, v)
		return
	}
	s.limiter.sleep(r.Context(), s.limiter.delay(v.Username, now))

	u, err := s.users.User(r.Context(), username)
	if err != nil && !errors.Is(err, domain.ErrNotFound) {
		s.log.Error("sign-in: loading user", "request_id", rq.ID, "err", err)
		w.Header().Set("Retry-After", retrySeconds(httpx.UnavailableRetry))
		v.Error = i18n.T(lang, "login.unavailable")
		s.renderLogin(w, r, httpx.Status(err), v)
		return
	}
	hash := dummyHash()
	if u != nil {
		hash = u.PasswordHash
	}
	if ok := CheckPassword(hash, f.Str("password")); !ok || u == nil {
		s.limiter.fail(v.Username, rq.Client, now)
		s.meter.LoginFailed()
		s.log.Info("sign-in failed", "request_id", rq.ID, "username", v.Username, "client", rq.Client)
		v.Error = i18n.T(lang, "login.failed")
		s.renderLogin(w, r, http.StatusUnauthorized, v)
		return
	}
	s.limiter.succeed(v.Username, rq.Client)

	// A fresh session: a new id, whatever cookie came in, so an id planted
	// before sign-in (session fixation) never becomes a signed-in one.
	if old := s.sessions.sessionID(r); old != "" {
		s.endSession(r, old)
	}
	sid, err := s.sessions.reg.issue(r.Context(), u.Username, u.PasswordHash, now)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	if err := s.sessions.setCookie(w, r, sid); err != nil {
		ui.Fail(w, r, err)
		return
	}
	s.log.Info("signed in", "request_id", rq.ID, "user", u.Username)
	http.Redirect(w, r, v.Next, http.StatusSeeOther)
}

// logout ends the session on the server (every copy of the cookie stops
// working) and drops the cookie.
func (s *Service) logout(w http.ResponseWriter, r *http.Request) {
	if sid := s.sessions.sessionID(r); sid != "" {
		s.endSession(r, sid)
	}
	s.sessions.clearCookie(w)
	http.Redirect(w, r, paths.Login+"?out=1", http.StatusSeeOther)
}

// endSession revokes a session. It ends here at once; when the other
// replicas could not be told (the store is down), it says so in the log.
func (s *Service) endSession(r *http.Request, sid string) {
	if err := s.sessions.reg.revoke(r.Context(), sid); err != nil {
		s.log.Warn("session ended here, but the other replicas could not be told", "request_id", httpx.RequestID(r.Context()), "err", err)
	}
}

// Share keeps the sign-in sessions in b (a JetStream key-value bucket):
// replicas share them and a restart keeps them. It returns once the
// existing sessions are loaded and follows changes until ctx ends.
func (s *Service) Share(ctx context.Context, b Bucket) error {
	return s.sessions.reg.follow(ctx, b, func(err error) {
		s.log.Warn("following the shared sessions was interrupted; watching again", "err", err)
	})
}

// waitText says how long to wait: in seconds under a minute, else in
// minutes rounded up.
func waitText(lang string, d time.Duration) string {
	if d < time.Minute {
		return i18n.Plural(lang, "duration.seconds", int((d+time.Second-1)/time.Second))
	}
	return i18n.Plural(lang, "duration.minutes", int((d+time.Minute-1)/time.Minute))
}

func retrySeconds(d time.Duration) string {
	return strconv.Itoa(int((d + time.Second - 1) / time.Second))
}
