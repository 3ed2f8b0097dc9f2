// Package server builds what `crossrank serve` serves: the command handler
// with its metrics hooks, the web server on top of it and the HTTP servers
// that carry it. `crossrank bench` builds its server through New too, so the
// path it measures is the path users get (a second wiring once let the
// bench chain appends while the server did not).
package server

import (
	"context"
	"crypto/ed25519"
	"log/slog"
	"net/http"
	"net/netip"
	"sync"

	"github.com/crossrank/crossrank/domain/bundle"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web"
	"github.com/crossrank/crossrank/web/auth"
	"github.com/crossrank/crossrank/web/desk"
	"github.com/crossrank/crossrank/web/notify"
	"github.com/crossrank/crossrank/web/site"
	"github.com/prometheus/client_golang/prometheus"
)

// Config is what New needs: the stores, opened by the caller, and the
// server's settings. Events and Read are required; every other field has a
// working zero value, noted on the field.
type Config struct {
	// Events is the event store the commands load from and append to.
	Events handler.Store
	// Read is the read models the pages query and commands wait for.
	Read *projections.Store
	// Logger receives request logs; nil: slog.Default().
	Logger *slog.Logger
	// SessionKeys sign the session cookie (web.Config.SessionKeys).
	SessionKeys [][]byte
	// Addr is the site's listen address (":8080").
	Addr string
	// MetricsAddr, when set, serves /metrics on an address of its own
	// and takes it off the site's.
	MetricsAddr string
	// Secure, PublicURL, TrustedProxies and PageCacheBytes are passed to
	// web.Config (see there).
	Secure         bool
	PublicURL      string
	TrustedProxies []netip.Prefix
	PageCacheBytes int
	// Verify, Captures, Passages and Ready are passed to web.Config; nil
	// leaves each feature off as web.Config says.
	Verify   desk.Verifier
	Captures site.Captures
	Passages desk.Passages
	// CaptureRetries counts the capture retries waiting (web.Config); nil:
	// the import page does not say.
	CaptureRetries desk.CaptureRetries
	Ready          func(ctx context.Context) error
	// SigningKey signs the editions' bundles (domain/bundle), served at
	// /r/{slug}/editions/{n}/bundle; nil: the site offers none.
	SigningKey ed25519.PrivateKey
	// OIDC and NoPasswords are how people sign in to the desk, passed to
	// web.Config (see there); nil and false: passwords only.
	OIDC        *auth.OIDCConfig
	NoPasswords bool
	// Mail keeps the users' mail settings and mails their confirmation
	// links (cmd/crossrank/mail's Service); nil: the server sends no mail.
	Mail notify.Mail
	// Registry is where the metrics are registered (the Go runtime's and
	// the process's with them) and what /metrics serves; nil: a registry
	// of the server's own.
	Registry *prometheus.Registry
}

// Server is the served wiring.
type Server struct {
	// Commands runs the domain's commands, counting its appends in the
	// metrics: every door (the site, the API, the command line through the
	// control socket, the workers) goes through it.
	Commands *handler.Handler
	// Web is the site, the desk and the API.
	Web *web.Server
	// HTTP serves Web on Config.Addr.
	HTTP *http.Server
	// Metrics serves /metrics alone on Config.MetricsAddr; nil when the
	// site serves it.
	Metrics *http.Server
}

// New builds the served wiring over cfg's stores. It starts nothing: the
// caller follows the stream (Commands.Follow), runs the read models and
// serves the HTTP servers.
func New(cfg Config) (*Server, error) {
	// /metrics counts every append conflict (retries too) and every append
	// sent as a chain link, and measures the projection lag against the
	// stream's end.
	metrics := web.NewMetrics(cfg.Registry)
	metrics.SetStream(cfg.Events)
	s := &Server{Commands: handler.New(cfg.Events, nil, handler.WithHooks(metrics.HandlerHooks()))}
	var bundles *bundle.Producer
	if cfg.SigningKey != nil {
		bundles = bundle.NewProducer(cfg.Events, cfg.SigningKey)
	}
	var err error
	s.Web, err = web.New(web.Config{
		Commands: s.Commands, Read: cfg.Read, Verify: cfg.Verify, Logger: cfg.Logger, SessionKeys: cfg.SessionKeys,
		Secure: cfg.Secure, TrustedProxies: cfg.TrustedProxies, SeparateMetrics: cfg.MetricsAddr != "",
		PageCacheBytes: cfg.PageCacheBytes, Captures: cfg.Captures, Passages: cfg.Passages, CaptureRetries: cfg.CaptureRetries, PublicURL: cfg.PublicURL,
		Ready: cfg.Ready, Metrics: metrics, Bundles: bundles, OIDC: cfg.OIDC, NoPasswords: cfg.NoPasswords, Mail: cfg.Mail,
	})
	if err != nil {
		return nil, err
	}
	// Background warms the first pages; until its first pass, /readyz
	// answers 503 (at most two minutes), so no reader is sent here cold.
	s.Web.ExpectWarm()
	s.HTTP = web.NewHTTPServer(cfg.Addr, s.Web.Handler())
	s.HTTP.RegisterOnShutdown(s.Web.CloseStreams)
	if cfg.MetricsAddr != "" {
		s.Metrics = web.NewHTTPServer(cfg.MetricsAddr, s.Web.MetricsHandler())
	}
	return s, nil
}

// Background runs what the server does beside answering requests until ctx
// ends: it builds the pages readers open first before they ask (after
// starting and after every publish; web.Server.KeepWarm), and returns
// memory to the system after load (memory.go). `crossrank serve` and the
// bench run it beside the projection runner.
func (s *Server) Background(ctx context.Context) {
	var wg sync.WaitGroup
	wg.Go(func() { s.Web.KeepWarm(ctx) })
	wg.Go(func() { returnMemory(ctx) })
	wg.Wait()
}
