package main

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"github.com/crossrank/crossrank/cmd/crossrank/capture"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/crossrank/crossrank/cmd/crossrank/mail"
	"github.com/crossrank/crossrank/cmd/crossrank/server"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/events/jetstream"
	"github.com/crossrank/crossrank/web"
	"github.com/crossrank/crossrank/web/auth"
	"github.com/crossrank/crossrank/web/desk"
)

// serve runs `crossrank serve`: its settings, then the server, then the
// server running until ctx ends.
func serve(ctx context.Context, args []string) error {
	cfg, err := parseServe(args)
	if err != nil {
		return err
	}
	applyMemoryLimit(cfg.memoryLimitMiB)
	log := newLogger()
	// The site listens first: while NATS is not ready, /healthz answers
	// and /readyz says what the server waits for (startup.go).
	l, err := listen(cfg.addr, newStartup(log), log)
	if err != nil {
		return err
	}
	defer l.hs.Close()
	e, err := cfg.openEventsWaiting(ctx, log, l.st)
	var busy *busyError
	if errors.As(err, &busy) {
		return exitError{1, fmt.Errorf("%v already; one server owns a data folder (run the other commands beside it: they go through it)", busy)}
	}
	if err != nil {
		return stopped(ctx, err)
	}
	defer e.close()
	if err := e.openRead(ctx); err != nil {
		return stopped(ctx, err)
	}
	mailer, err := cfg.mail.service(ctx, e, cfg.replicas, cfg.publicURL)
	if err != nil {
		return stopped(ctx, err)
	}
	srv, err := newServer(ctx, cfg, e, log, mailer)
	if err != nil {
		return stopped(ctx, err)
	}
	return stopped(ctx, runServer(ctx, cfg, e, srv, l, log, mailer))
}

// stopped is nil when err came of ctx ending (SIGTERM while the server
// waited for NATS is a clean stop), else err.
func stopped(ctx context.Context, err error) error {
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return nil
	}
	return err
}

// listening is the site's listener, served by the startup gate until the
// server is built.
type listening struct {
	st   *startup
	hs   *http.Server
	url  string
	errs chan error
}

// listen binds addr and serves st on it.
func listen(addr string, st *startup, log *slog.Logger) (*listening, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	l := &listening{st: st, hs: web.NewHTTPServer(addr, st), url: "http://" + displayAddr(ln.Addr()), errs: make(chan error, 2)}
	go func() { l.errs <- l.hs.Serve(ln) }()
	log.Info("crossrank listening", "url", l.url)
	return l, nil
}

// newServer builds the served wiring (server.New) over e's stores, as
// cfg sets it; the command handler is e's from now on.
func newServer(ctx context.Context, cfg config, e *env, log *slog.Logger, mailer *mail.Service) (*server.Server, error) {
	keys, err := sessionKeys(cfg.data, log)
	if err != nil {
		return nil, err
	}
	copies, err := cfg.capture.copies(ctx, e, cfg.replicas)
	if err != nil {
		return nil, err
	}
	signer, err := signingKey(cfg.data, log)
	if err != nil {
		return nil, err
	}
	oidc, err := cfg.signIn.config()
	if err != nil {
		return nil, err
	}
	sc := server.Config{
		OIDC: oidc, NoPasswords: !cfg.signIn.passwords,
		Events: e.events, Read: e.read, Logger: log, SessionKeys: keys, Addr: cfg.addr, MetricsAddr: cfg.metricsAddr,
		Secure: cfg.secure, PublicURL: cfg.publicURL, TrustedProxies: cfg.trustedProxies, PageCacheBytes: cfg.pageCacheBytes,
		Verify: desk.ProjectionVerifier(e.events, e.read.DB()), Captures: copies, Passages: copies, SigningKey: signer,
		Ready: func(ctx context.Context) error { return ready(ctx, e) },
	}
	if mailer != nil { // a nil *mail.Service is not a nil interface
		sc.Mail = mailer
	}
	if !cfg.capture.off {
		if sc.CaptureRetries, err = capture.NewRetryCount(e.nc, 0); err != nil {
			return nil, err
		}
	}
	srv, err := server.New(sc)
	if err != nil {
		return nil, err
	}
	e.commands = srv.Commands
	if mailer != nil {
		mailer.Users = srv.Commands
	}
	return srv, nil
}

// runServer runs srv and the workers beside it until ctx ends or one of
// them fails: the read models and the handler follow the stream, then the
// control socket, the demo seed, shared sessions, the publishing, capture
// and schedule workers, and the HTTP listeners.
func runServer(ctx context.Context, cfg config, e *env, srv *server.Server, l *listening, log *slog.Logger, mailer *mail.Service) error {
	runCtx, stopRunner := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	runErr := make(chan error, 1)
	wg.Go(func() {
		if err := e.read.Run(runCtx, e.events, log); err != nil {
			log.Error("projection runner stopped", "err", err)
			runErr <- err
		}
	})
	defer func() { stopRunner(); wg.Wait() }()
	// Commands read rankings and editions from states kept current by the
	// stream (domain/handler/follow.go); while it is not running they read the
	// store directly, as before.
	wg.Go(func() {
		if err := e.commands.Follow(runCtx, e.events); err != nil && runCtx.Err() == nil {
			log.Warn("commands read the store directly: following the stream stopped", "err", err)
		}
	})
	// The pages readers open first are built before the first reader asks,
	// and again after each publish; memory goes back after load.
	wg.Go(func() { srv.Background(runCtx) })
	if e.server != nil {
		// The command line's user, token, seed, verify and export run
		// in this process from now on, not beside it.
		ctl, err := listenControl(runCtx, cfg.data, e, log)
		if err != nil {
			return err
		}
		defer ctl.close()
	}

	st := e.start
	last, err := opened(ctx, st, "the end of the stream "+jetstream.StreamName, e.events.LastSequence)
	if err != nil {
		return err
	}
	if last == 0 && !cfg.noDemo {
		if err := open(ctx, st, "the demo ranking", func(ctx context.Context) error { return seedDemo(ctx, e, os.Stderr) }); err != nil {
			return err
		}
	}

	// Sign-ins live in a key-value bucket next to the stream: every
	// replica sees them, and a restart keeps them.
	err = open(ctx, st, "the bucket "+jetstream.SessionsBucket, func(ctx context.Context) error {
		kv, err := jetstream.OpenKV(ctx, e.nc, jetstream.SessionsBucket, auth.SessionLifetime, cfg.replicas)
		if err != nil {
			return err
		}
		return srv.Web.ShareSessions(runCtx, kv)
	})
	if err != nil {
		return fmt.Errorf("sessions: %w", err)
	}
	// Readers' contact addresses live in a bucket of their own, with an
	// expiry, never in the event log.
	contacts, err := opened(ctx, st, "the bucket "+jetstream.ContactsBucket, func(ctx context.Context) (*jetstream.KV, error) {
		return openContacts(ctx, e, cfg.replicas)
	})
	if err != nil {
		return err
	}
	srv.Web.KeepContacts(contacts)
	// Import jobs live in a bucket, their checked uploads in an object
	// store: any replica answers for a job, and confirms a dry run another
	// checked (web/imports).
	err = open(ctx, st, "the buckets "+jetstream.ImportJobsBucket+" and "+jetstream.ImportFilesBucket, func(ctx context.Context) error {
		sh, err := openImports(ctx, e, cfg.replicas)
		if err != nil {
			return err
		}
		srv.Web.ShareImports(runCtx, sh)
		return nil
	})
	if err != nil {
		return fmt.Errorf("imports: %w", err)
	}
	if err := cfg.publish.start(runCtx, e, log, &wg); err != nil {
		return err
	}
	if err := cfg.capture.start(runCtx, e, cfg.replicas, log, &wg); err != nil {
		return err
	}
	if err := startScheduler(runCtx, e, cfg.replicas, log, &wg); err != nil {
		return err
	}
	if err := startMail(runCtx, e, mailer, cfg.replicas, log, &wg); err != nil {
		return err
	}
	if err := startChat(runCtx, e, cfg.publicURL, cfg.publish.chatAllow, log, &wg); err != nil {
		return err
	}
	hs, serveErr := l.hs, l.errs
	hs.RegisterOnShutdown(srv.Web.CloseStreams)
	l.st.serve(srv.HTTP.Handler)
	log.Info("crossrank serving", "url", l.url, "data", cfg.data)
	fmt.Fprintf(os.Stderr, "\n  Crossrank is running: %s\n  Public ranking: %s/  ·  Desk: %s/desk\n\n", l.url, l.url, l.url)
	// The metrics get a listener of their own when asked, so the site's
	// address need not expose them; it shuts down with the site.
	ms := srv.Metrics
	if ms != nil {
		mln, err := net.Listen("tcp", cfg.metricsAddr)
		if err != nil {
			hs.Close()
			return fmt.Errorf("metrics: %w", err)
		}
		log.Info("metrics serving", "url", "http://"+displayAddr(mln.Addr())+"/metrics")
		go func() { serveErr <- ms.Serve(mln) }()
	}

	select {
	case <-ctx.Done():
		log.Info("shutting down: draining HTTP, flushing projections, stopping NATS")
	case err := <-serveErr:
		if !errors.Is(err, http.ErrServerClosed) {
			return err
		}
	case err := <-runErr:
		hs.Close()
		if ms != nil {
			ms.Close()
		}
		return fmt.Errorf("projection runner: %w", err)
	}
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if ms != nil {
		return errors.Join(hs.Shutdown(sctx), ms.Shutdown(sctx))
	}
	return hs.Shutdown(sctx)
}

// Readiness limits: the event store must answer within readyTimeout; read
// models more than readyMaxLag events behind are not ready, and fewer must
// catch up within readyCatchUp (a write that landed a moment ago is not
// lag, a stuck projection is).
const (
	readyTimeout = time.Second
	readyMaxLag  = 1000
	readyCatchUp = 750 * time.Millisecond
)

// ready reports not-ready while NATS is unreachable or slow to answer, or
// the read models lag behind the stream.
func ready(ctx context.Context, e *env) error {
	if e.server != nil {
		// A full disk: the stream answers reads, but no write succeeds.
		if err := e.server.StorageError(); err != nil {
			return err
		}
	}
	sctx, cancel := context.WithTimeout(ctx, readyTimeout)
	defer cancel()
	last, err := e.events.LastSequence(sctx)
	if err != nil {
		return fmt.Errorf("event store unreachable: %w", err)
	}
	lag, _ := e.read.Lag(last)
	switch {
	case lag == 0:
		return nil
	case lag > readyMaxLag:
		return fmt.Errorf("read models are %d events behind the stream", lag)
	}
	wctx, cancel := context.WithTimeout(ctx, readyCatchUp)
	defer cancel()
	if e.read.WaitFor(wctx, last) != nil {
		lag, idle := e.read.Lag(last)
		return fmt.Errorf("read models are %d events behind the stream and applied none for %s", lag, idle.Round(time.Millisecond))
	}
	return nil
}

func displayAddr(a net.Addr) string {
	t, ok := a.(*net.TCPAddr)
	if !ok {
		return a.String()
	}
	if t.IP.IsUnspecified() {
		return fmt.Sprintf("localhost:%d", t.Port)
	}
	return t.String()
}

// seedDemo loads the demo ranking and prints the demo logins to w, once:
// when it was loaded by this call.
func seedDemo(ctx context.Context, e *env, w io.Writer) error {
	pw := os.Getenv("CROSSRANK_DEMO_PASSWORD")
	if pw == "" {
		b := make([]byte, 9)
		rand.Read(b)
		pw = base64.RawURLEncoding.EncodeToString(b)
	}
	start := time.Now()
	sum, err := demo.Seed(ctx, e.commands, demo.Options{Password: pw, HashPassword: auth.HashPassword,
		AuditHead: e.read.AuditHead, CrossValidated: e.read.CrossValidated, Now: time.Now()})
	if err != nil {
		return err
	}
	last, _ := e.events.LastSequence(ctx)
	if err := e.read.WaitFor(ctx, last); err != nil {
		return err
	}
	e.log.Info("demo ranking loaded", "edition", sum.Edition, "events", last, "seconds", time.Since(start).Seconds())
	if !sum.Appended {
		fmt.Fprintln(w, "The demo ranking is loaded already.")
		return nil
	}
	fmt.Fprintf(w, "\n  Demo ranking loaded: GPU 算力租赁平台观察 / GPU cloud rental platforms (edition %d)\n", sum.Edition)
	fmt.Fprintf(w, "  Demo logins (shown once; set CROSSRANK_DEMO_PASSWORD to choose it):\n")
	for _, u := range demo.DemoUsers {
		fmt.Fprintf(w, "    %-10s %-10s password: %s\n", u.Name, u.Roles[0], pw)
	}
	return nil
}

// sessionKeys returns CROSSRANK_SESSION_KEYS or, when it is not set, the
// key kept in the data directory (session.key, created on first start), so
// that a restart keeps everyone signed in. Replicas with data directories
// of their own must share CROSSRANK_SESSION_KEYS instead.
func sessionKeys(data string, log *slog.Logger) ([][]byte, error) {
	if v := os.Getenv("CROSSRANK_SESSION_KEYS"); v != "" {
		keys, err := auth.ParseSessionKeys(v)
		if err != nil {
			return nil, fmt.Errorf("CROSSRANK_SESSION_KEYS: %w", err)
		}
		return keys, nil
	}
	path := filepath.Join(data, "session.key")
	if b, err := os.ReadFile(path); err == nil {
		keys, err := auth.ParseSessionKeys(strings.TrimSpace(string(b)))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		return keys, nil
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	key := base64.StdEncoding.EncodeToString(auth.RandomSessionKey())
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(key+"\n"), 0o600); err != nil {
		return nil, err
	}
	if err := os.Rename(tmp, path); err != nil {
		return nil, err
	}
	log.Info("no CROSSRANK_SESSION_KEYS: made a session key and kept it in the data directory", "path", path)
	return auth.ParseSessionKeys(key)
}
