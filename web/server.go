package web

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"time"

	"github.com/crossrank/crossrank/domain/bundle"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/auth"
	"github.com/crossrank/crossrank/web/command"
	"github.com/crossrank/crossrank/web/desk"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/imports"
	"github.com/crossrank/crossrank/web/notify"
	"github.com/crossrank/crossrank/web/site"
	"github.com/crossrank/crossrank/web/ui"
)

// Config configures a Server. Commands is required; every other field has a
// working zero value, noted on the field.
type Config struct {
	// Commands runs domain commands and loads users.
	Commands *handler.Handler
	// Read is the read models the pages query. When set, it also stands in
	// for Waiter, Publish and Tokens left nil.
	Read *projections.Store
	// Waiter gives read-your-writes; nil: answer without waiting.
	Waiter command.Waiter
	// Publish feeds the publish command; nil: no audit head, and no other
	// cross-validated proposal is checked for a changed baseline.
	Publish command.PublishContext
	// Tokens resolves API tokens; nil: bearer tokens are refused.
	Tokens auth.TokenOwners
	// Verify checks the audit chain and the editions against the event
	// store for the audit page; nil: the page says it cannot verify.
	Verify desk.Verifier
	// Ready reports whether the server can take traffic (/readyz); nil: always.
	Ready func(ctx context.Context) error
	// Logger receives request logs; nil: slog.Default().
	Logger *slog.Logger
	// SessionKeys sign the session cookie: the first signs, all verify, so a
	// key can be rotated out (see auth.ParseSessionKeys). Empty: one random key,
	// and every session ends when the process restarts.
	SessionKeys [][]byte
	// Secure marks cookies Secure and sends HSTS; set it when the site is
	// served over TLS, directly or behind a TLS-terminating proxy.
	Secure bool
	// PublicURL is the site's public address ("https://rank.example"), for
	// permalinks readers take elsewhere: citations and badge embeds. "":
	// downloads name the Host each request came to, and pages show paths.
	PublicURL string
	// TrustedOrigins are extra origins ("https://desk.example.org") allowed to
	// post cross-origin, such as a proxy that rewrites Host.
	TrustedOrigins []string
	// TrustedProxies are the reverse proxies (see auth.ParseTrustedProxies) whose
	// X-Forwarded-For or Forwarded header names the client; a request from
	// anywhere else is the client itself. Empty: trust no proxy, and behind
	// one every client shares the proxy's address.
	TrustedProxies []netip.Prefix
	// Now is the clock; nil: time.Now.
	Now func() time.Time
	// SeparateMetrics takes GET /metrics off Handler (it answers 404 there):
	// serve MetricsHandler on a private address instead. False: /metrics is
	// served with the site, as before, for deployments that block it at the
	// proxy.
	SeparateMetrics bool
	// PageCacheBytes bounds the memory of rendered public pages and API
	// answers kept for readers who are not signed in; 0: 64 MiB
	// (site.DefaultPageCacheBytes); negative: keep none.
	PageCacheBytes int
	// Captures reads the archived copies of the pages evidence cites
	// (GET /captures/{sha256}); nil: that route answers 404 and pages
	// link no copies.
	Captures site.Captures
	// Bundles writes the editions' signed bundles and names their key
	// (see site.Config.Bundles); nil: the site offers none.
	Bundles *bundle.Producer
	// Metrics counts what the server and the command handler do, served at
	// GET /metrics; nil: metrics of its own, on a registry of its own.
	Metrics *Metrics
	// Passages marks the quoted passage in an archived copy for signed-in
	// reviewers (GET /desk/proposals/{id}/evidence/{e}/passage); nil: that
	// route answers 404 and the desk links no highlighted copies.
	Passages desk.Passages
	// CaptureRetries counts the sources failing now, for the import page
	// (capture.RetryCount); nil: the page does not say.
	CaptureRetries desk.CaptureRetries
	// OIDC signs people in through the organisation's OpenID Provider
	// (see auth.OIDCConfig; Identities and Binder default to Read and
	// Commands); nil: passwords only.
	OIDC *auth.OIDCConfig
	// NoPasswords turns password sign-in off on the desk (only with OIDC).
	NoPasswords bool
	// Contacts keeps the contact addresses readers give with their reports,
	// apart from the event log (a JetStream KV bucket with an expiry); nil:
	// a report that gives one is refused.
	Contacts command.Contacts
	// Mail keeps the users' mail addresses and choices and mails the
	// confirmation links (cmd/crossrank/mail); nil: the server sends no
	// mail, and its mail pages say so.
	Mail notify.Mail

	// sleep replaces the sign-in throttle's account-wide wait (tests).
	sleep func(ctx context.Context, d time.Duration)
	// siteRows replaces the rows a live ranking page shows (tests).
	siteRows int
}

// The read models satisfy every interface the server declares.
var (
	_ command.Waiter         = (*projections.Store)(nil)
	_ command.PublishContext = (*projections.Store)(nil)
	_ auth.TokenOwners       = (*projections.Store)(nil)
	_ auth.Identities        = (*projections.Store)(nil)
	_ auth.Binder            = (*handler.Handler)(nil)
)

// Server holds the routes and everything the handlers share.
type Server struct {
	read       *projections.Store // nil until the pages need it
	commands   *command.Deps      // the write path, shared by the API and the forms
	imports    *imports.Jobs      // the file imports, shared by the desk's page and the API
	ready      func(context.Context) error
	log        *slog.Logger
	now        func() time.Time
	secure     bool
	ownMetrics bool // /metrics is served by MetricsHandler only
	metrics    *Metrics
	// metricsHandler serves GET /metrics.
	metricsHandler http.Handler
	mux            *http.ServeMux
	handler        http.Handler
	auth           *auth.Service
	desk           *desk.Desk
	origins        *http.CrossOriginProtection
	site           *site.Site
	publicURL      string // the site's address for one-time links; "": the request's
	mail           notify.Mail
}

// New returns a Server with every route registered.
func New(cfg Config) (*Server, error) {
	if cfg.Commands == nil {
		return nil, errors.New("web: Config.Commands is required")
	}
	if cfg.Read != nil {
		if cfg.Waiter == nil {
			cfg.Waiter = cfg.Read
		}
		if cfg.Publish == nil {
			cfg.Publish = cfg.Read
		}
		if cfg.Tokens == nil {
			cfg.Tokens = cfg.Read
		}
	}
	s := &Server{
		read: cfg.Read, publicURL: cfg.PublicURL, mail: cfg.Mail,
		ready: cfg.Ready, log: cfg.Logger, now: cfg.Now, secure: cfg.Secure, ownMetrics: cfg.SeparateMetrics,
		mux: http.NewServeMux(), origins: http.NewCrossOriginProtection(),
	}
	if s.log == nil {
		s.log = slog.Default()
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.metrics = cfg.Metrics; s.metrics == nil {
		s.metrics = NewMetrics(nil)
	}
	var err error
	if o := cfg.OIDC; o != nil {
		o2 := *o
		if o2.Identities == nil && cfg.Read != nil {
			o2.Identities = cfg.Read
		}
		if o2.Binder == nil {
			o2.Binder = cfg.Commands
		}
		if o2.PublicURL == "" {
			o2.PublicURL = cfg.PublicURL
		}
		cfg.OIDC = &o2
	}
	s.auth, err = auth.New(auth.Config{Users: cfg.Commands, Tokens: cfg.Tokens, Keys: cfg.SessionKeys,
		Secure: cfg.Secure, Proxies: cfg.TrustedProxies, Log: s.log, Meter: s.metrics,
		Sleep: cfg.sleep, OIDC: cfg.OIDC, NoPasswords: cfg.NoPasswords})
	if err != nil {
		return nil, err
	}
	s.commands = &command.Deps{Commands: cfg.Commands, Waiter: cfg.Waiter, Publish: cfg.Publish,
		Now: s.now, Log: s.log, RequireUser: s.auth.RequireUser, Observe: s.metrics.observeCommand,
		Comments: command.NewCommentRate(), Contacts: cfg.Contacts, ReportThrottle: auth.NewReportThrottle()}
	// A mail client posts the one-click unsubscribe (RFC 8058) from its
	// own servers, perhaps naming its origin: the token in the address is
	// the whole authority, and all it can do is stop mail.
	s.origins.AddInsecureBypassPattern(notify.UnsubscribePattern)
	for _, o := range cfg.TrustedOrigins {
		if err := s.origins.AddTrustedOrigin(o); err != nil {
			return nil, err
		}
	}
	if err := checkPublicURL(cfg.PublicURL); err != nil {
		return nil, err
	}
	s.site = site.New(site.Config{Read: cfg.Read, Log: s.log, Now: s.now, Secure: cfg.Secure,
		PageCacheBytes: cfg.PageCacheBytes, Rows: cfg.siteRows, Captures: cfg.Captures, Origin: cfg.PublicURL,
		Bundles: cfg.Bundles})
	s.imports = imports.New(cfg.Commands, s.log, s.now)
	s.desk = desk.New(desk.Config{Write: s.commands, Sessions: s.auth, Read: cfg.Read, Verify: cfg.Verify, Log: s.log,
		Passages: cfg.Passages, PublicURL: cfg.PublicURL, Imports: s.imports, Retries: cfg.CaptureRetries, SignIn: s.auth.SignIn()})
	// The server's scrape-time figures join the registry: one web server
	// per Metrics.
	if err := s.metrics.reg.Register(scrapeCollector{s}); err != nil {
		return nil, fmt.Errorf("web: metrics: %w", err)
	}
	s.metricsHandler = s.metrics.handler(slog.NewLogLogger(s.log.Handler(), slog.LevelWarn))
	s.routes()
	s.handler = s.middleware(s.mux)
	return s, nil
}

// Handler returns the server's HTTP handler, middleware included.
func (s *Server) Handler() http.Handler { return s.handler }

// CloseStreams ends every live event stream: the public site's (see
// site.Site.CloseStreams) and the desk's (pending captures, inbox counts).
func (s *Server) CloseStreams() {
	s.site.CloseStreams()
	s.desk.CloseStreams()
}

// noRoute answers a request no other pattern took. The catch-all "/"
// matches every method, so it shadows ServeMux's own 405: it asks the mux
// which methods the path has, and answers 405 with Allow when there are
// some, else 404 — both in the site's error page or problem+json.
func (s *Server) noRoute(w http.ResponseWriter, r *http.Request) {
	if allow := s.allowedMethods(r); len(allow) > 0 {
		w.Header().Set("Allow", strings.Join(allow, ", "))
		ui.Fail(w, r, httpx.ErrMethod)
		return
	}
	ui.Fail(w, r, httpx.ErrNoRoute)
}

// allowedMethods lists the methods a route other than the catch-all serves
// at r's path.
func (s *Server) allowedMethods(r *http.Request) []string {
	var allow []string
	for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
		probe := *r // shallow: the mux reads only the method, host and path
		probe.Method = m
		if _, pattern := s.mux.Handler(&probe); pattern == "" || pattern == "/" {
			continue
		}
		allow = append(allow, m)
		if m == http.MethodGet {
			allow = append(allow, http.MethodHead) // a GET pattern serves HEAD too
		}
	}
	return allow
}

// NewHTTPServer returns an http.Server for h with timeouts that keep slow or
// idle clients from holding connections. A handler streaming longer than
// WriteTimeout (server-sent events) extends its own deadline with
// http.ResponseController.
func NewHTTPServer(addr string, h http.Handler) *http.Server {
	return &http.Server{
		Addr:              addr,
		Handler:           h,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
	}
}

// checkPublicURL accepts "" or an http(s) origin: a scheme and a host,
// nothing after but a final slash.
func checkPublicURL(s string) error {
	if s == "" {
		return nil
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
		(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return fmt.Errorf("public URL %q: want http(s)://host[:port]", s)
	}
	return nil
}
