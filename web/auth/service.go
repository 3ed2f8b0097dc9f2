// Package auth signs people in and says who is asking: sign-in sessions
// (a signed cookie holding a random id, recorded server-side and shared
// between replicas through a key-value bucket), bearer tokens for the API,
// password hashing, the sign-in throttles, the client address behind
// trusted proxies, and the RequireUser and RequireRole guards.
package auth

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/netip"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/web/paths"
)

// Users loads accounts; *handler.Handler implements it.
type Users interface {
	// User returns the account, or an error wrapping domain.ErrNotFound.
	User(ctx context.Context, username string) (*domain.User, error)
}

// TokenOwners finds the user an API token belongs to; the token id alone
// does not say, and only a read model indexes tokens across users.
type TokenOwners interface {
	// TokenOwner returns the username holding token id, or an error
	// wrapping domain.ErrNotFound.
	TokenOwner(ctx context.Context, tokenID string) (username string, err error)
}

// Meter counts sign-in outcomes for /metrics.
type Meter interface {
	LoginFailed()
	// LoginThrottled counts a sign-in refused by limit (LimitClient or
	// LimitAddress).
	LoginThrottled(limit string)
	// BearerFailed counts a bearer token that did not verify.
	BearerFailed()
	// BearerThrottled counts a request refused (429) because bearer tokens
	// from its address failed too often.
	BearerThrottled()
}

// LoginForm is what the sign-in page shows.
type LoginForm struct {
	Username  string
	Next      string
	Error     string // the one message a failed sign-in shows
	SignedOut bool
	Welcome   bool // the password was just chosen on a one-time link
	// Submitted reports whether the form was posted: the page is then shown
	// to whoever signs in now, not to the user of the request's cookie.
	Submitted bool
}

// Config configures a Service. Users is required.
type Config struct {
	Users Users
	// Tokens resolves API tokens; nil: bearer tokens are refused.
	Tokens TokenOwners
	// Keys sign the session cookie: the first signs, all verify (see
	// ParseSessionKeys). Empty: one random key, and every session ends
	// when the process restarts.
	Keys [][]byte
	// Secure marks the session cookie Secure.
	Secure bool
	// Proxies are the trusted reverse proxies (see ParseTrustedProxies).
	Proxies []netip.Prefix
	// Log receives sign-in events; nil: slog.Default().
	Log *slog.Logger
	// Meter counts sign-in outcomes; nil: not counted.
	Meter Meter
	// Sleep holds a sign-in to a much-guessed account for d; nil: a timer
	// that ends early with ctx. Tests record the delay instead.
	Sleep func(ctx context.Context, d time.Duration)
	// OIDC signs people in through the organisation's OpenID Provider;
	// nil: not offered.
	OIDC *OIDCConfig
	// NoPasswords turns signing in with a password off (the desk's form
	// and its POST); only with OIDC set, which is then the way in.
	NoPasswords bool
}

// Service authenticates requests and serves sign-in and sign-out.
type Service struct {
	users    Users
	tokens   TokenOwners
	sessions *sessionStore
	limiter  *loginLimiter
	proxies  proxies
	log      *slog.Logger
	meter    Meter
	secure   bool
	// oidc is the OpenID Provider, nil when not configured; flows and
	// states carry and close its sign-ins.
	oidc        *oidcClient
	flows       *flowCodec
	states      *usedStates
	noPasswords bool
}

// New returns a Service for cfg.
func New(cfg Config) (*Service, error) {
	if cfg.Users == nil {
		return nil, errors.New("auth: Config.Users is required")
	}
	s := &Service{users: cfg.Users, tokens: cfg.Tokens, log: cfg.Log, meter: cfg.Meter, secure: cfg.Secure,
		proxies: proxies(cfg.Proxies), limiter: newLoginLimiter(loginLimiterMaxKeys),
		noPasswords: cfg.NoPasswords, states: newUsedStates(100_000)}
	if s.log == nil {
		s.log = slog.Default()
	}
	if s.meter == nil {
		s.meter = noMeter{}
	}
	if cfg.Sleep != nil {
		s.limiter.sleep = cfg.Sleep
	}
	keys := cfg.Keys
	if len(keys) == 0 {
		s.log.Warn("no session keys configured (CROSSRANK_SESSION_KEYS): using a random key; sessions end on restart")
		keys = [][]byte{RandomSessionKey()}
	}
	var err error
	if s.sessions, err = newSessionStore(keys, cfg.Secure); err != nil {
		return nil, err
	}
	s.flows = newFlowCodec(keys, cfg.Secure)
	switch {
	case cfg.OIDC != nil:
		if s.oidc, err = newOIDCClient(*cfg.OIDC); err != nil {
			return nil, err
		}
	case cfg.NoPasswords:
		return nil, errors.New("auth: password sign-in can only be turned off when an OpenID Provider is configured")
	}
	return s, nil
}

// Routes mounts sign-in and sign-out on mux.
func (s *Service) Routes(mux *http.ServeMux) {
	mux.Handle("GET "+paths.Login, http.HandlerFunc(s.loginPageGet))
	mux.Handle("POST "+paths.Login, http.HandlerFunc(s.loginSubmit))
	mux.Handle("POST "+paths.Logout, http.HandlerFunc(s.logout))
	// The OpenID Provider's sign-in: both GETs, the callback because the
	// provider redirects the browser there (its checks are in
	// oidcCallback). Without a provider they answer 404.
	mux.Handle("GET "+paths.LoginOIDC, http.HandlerFunc(s.oidcStart))
	mux.Handle("GET "+paths.LoginOIDCCallback, http.HandlerFunc(s.oidcCallback))
}

// ClientAddr is the address of the client r came from (see
// proxies.clientAddr): the TCP peer, or the address a trusted proxy
// forwarded for.
func (s *Service) ClientAddr(r *http.Request) string { return s.proxies.clientAddr(r) }

// Reopen moves the session sid to the password whose hash is pwHash,
// after its user changed the password: this session stays signed in and
// every other one of the user ends.
func (s *Service) Reopen(ctx context.Context, sid, pwHash string) error {
	return s.sessions.reg.reopen(ctx, sid, pwHash)
}

// EndSessions ends every session of user and returns how many it ended.
func (s *Service) EndSessions(ctx context.Context, user string) (int, error) {
	return s.sessions.reg.revokeUser(ctx, user)
}

type noMeter struct{}

func (noMeter) LoginFailed()          {}
func (noMeter) LoginThrottled(string) {}
func (noMeter) BearerFailed()         {}
func (noMeter) BearerThrottled()      {}
