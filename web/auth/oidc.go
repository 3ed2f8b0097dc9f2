package auth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/web/paths"
	"golang.org/x/oauth2"
)

// The client of the organisation's OpenID Provider is go-oidc
// (github.com/coreos/go-oidc/v3) over golang.org/x/oauth2: discovery, the
// ID token's checks (issuer, audience, expiry, signature) and a JWKS that
// is fetched again when a token names a key it does not hold, so the
// provider may rotate its keys. PKCE, state and nonce are ours
// (oidc_flow.go); so is what a verified identity may do (oidc_callback.go):
// signing in proves who someone is, never what they may do.

// OIDCConfig configures sign-in through an OpenID Provider (authorization
// code flow with PKCE). Issuer, ClientID, Identities and Binder are
// required.
type OIDCConfig struct {
	// Issuer is the provider's issuer URL, exactly as its discovery
	// document and its ID tokens name it.
	Issuer       string
	ClientID     string
	ClientSecret string // "": a public client (PKCE alone)
	// Name is the provider as the sign-in button names it; "": the
	// issuer's host.
	Name string
	// PublicURL is the site's address ("https://rank.example") under which
	// the callback is registered with the provider; "": the address each
	// request came to.
	PublicURL string
	// Identities finds the account a subject is bound to.
	Identities Identities
	// Binder binds an invited account to the subject that signed in.
	Binder Binder
	// Client makes the requests to the provider; nil: one with a 10-second
	// timeout.
	Client *http.Client
}

// Identities finds the account an OpenID Provider's subject signs in as;
// the read models implement it.
type Identities interface {
	// IdentityUser returns the username bound to sub at iss, or an error
	// wrapping domain.ErrNotFound.
	IdentityUser(ctx context.Context, iss, sub string) (string, error)
}

// Binder runs the command that accepts an invitation by signing in with
// the provider; *handler.Handler implements it.
type Binder interface {
	BindIdentity(ctx context.Context, c domain.BindIdentity) (handler.Result, error)
}

// SignIn is how people sign in to this server, as the sign-in and welcome
// pages offer it. The zero value is passwords alone.
type SignIn struct {
	// Provider names the OpenID Provider on its button; "": none.
	Provider string
	// NoPasswords reports whether signing in with a password is off (the
	// operator's --password-sign-in=false); the provider is then the only
	// way in for the desk (the command line still works).
	NoPasswords bool
}

// SignIn reports how people sign in to this server.
func (s *Service) SignIn() SignIn {
	v := SignIn{NoPasswords: s.noPasswords}
	if s.oidc != nil {
		v.Provider = s.oidc.name
	}
	return v
}

// discoveryBackoff is how long a failed discovery is not tried again, so a
// provider that is down is not asked on every click.
const discoveryBackoff = 10 * time.Second

// oidcClient is the configured provider, discovered on first use: the
// server starts whether or not the provider answers.
type oidcClient struct {
	cfg    OIDCConfig
	name   string
	client *http.Client

	mu       sync.Mutex
	provider *oidc.Provider
	failedAt time.Time
	err      error
}

func newOIDCClient(cfg OIDCConfig) (*oidcClient, error) {
	u, err := url.Parse(cfg.Issuer)
	switch {
	case err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.RawQuery != "" || u.Fragment != "":
		return nil, fmt.Errorf("auth: OpenID issuer %q: want an http(s) URL", cfg.Issuer)
	case cfg.ClientID == "":
		return nil, errors.New("auth: OpenID client id is required")
	case cfg.Identities == nil || cfg.Binder == nil:
		return nil, errors.New("auth: OIDCConfig.Identities and Binder are required")
	}
	c := &oidcClient{cfg: cfg, name: cfg.Name, client: cfg.Client}
	if c.name == "" {
		c.name = u.Host
	}
	if c.client == nil {
		c.client = &http.Client{Timeout: 10 * time.Second}
	}
	return c, nil
}

// context carries the client go-oidc and oauth2 make their requests with.
func (c *oidcClient) context(ctx context.Context) context.Context {
	return oidc.ClientContext(ctx, c.client)
}

// discover returns the provider, reading its discovery document the first
// time (go-oidc refuses a document naming another issuer).
func (c *oidcClient) discover(ctx context.Context, now time.Time) (*oidc.Provider, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.provider != nil {
		return c.provider, nil
	}
	if c.err != nil && now.Before(c.failedAt.Add(discoveryBackoff)) {
		return nil, c.err
	}
	// Not the request's context: the provider keeps it to fetch its keys
	// later (go-oidc drops its cancellation).
	p, err := oidc.NewProvider(c.context(context.WithoutCancel(ctx)), c.cfg.Issuer)
	if err != nil {
		c.failedAt, c.err = now, fmt.Errorf("OpenID discovery at %s: %w", c.cfg.Issuer, err)
		return nil, c.err
	}
	c.provider, c.err = p, nil
	return p, nil
}

// oauth2 is the code flow's configuration for a request: the callback on
// the public address, else on the address the request came to.
func (c *oidcClient) oauth2(p *oidc.Provider, r *http.Request, secure bool) *oauth2.Config {
	return &oauth2.Config{ClientID: c.cfg.ClientID, ClientSecret: c.cfg.ClientSecret, Endpoint: p.Endpoint(),
		RedirectURL: c.redirectURL(r, secure), Scopes: []string{oidc.ScopeOpenID, "profile", "email"}}
}

// redirectURL is the callback's absolute URL, the one to register with the
// provider.
func (c *oidcClient) redirectURL(r *http.Request, secure bool) string {
	if c.cfg.PublicURL != "" {
		return strings.TrimSuffix(c.cfg.PublicURL, "/") + paths.LoginOIDCCallback
	}
	scheme := "http"
	if secure || r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host + paths.LoginOIDCCallback
}

// verifier checks an ID token: signed by a key of the provider's JWKS,
// issued by the configured issuer, for this client, not expired.
func (c *oidcClient) verifier(p *oidc.Provider, now func() time.Time) *oidc.IDTokenVerifier {
	return p.Verifier(&oidc.Config{ClientID: c.cfg.ClientID, Now: now})
}
