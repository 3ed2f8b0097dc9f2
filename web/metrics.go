package web

import (
	"context"
	"io"
	"net/http"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/web/auth"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/ui"
)

// siteMetrics serves /metrics on the site's address unless the metrics have
// an address of their own (Config.SeparateMetrics); then the site answers
// 404, as for any address it does not serve. The route stays registered
// either way, so the route list does not change with configuration.
func (s *Server) siteMetrics(w http.ResponseWriter, r *http.Request) {
	if s.ownMetrics {
		ui.Fail(w, r, httpx.ErrNoRoute)
		return
	}
	s.metrics(w, r)
}

// MetricsHandler serves GET /metrics alone, without the site's middleware
// (no sessions, no language): mount it on a private listener when
// Config.SeparateMetrics is set. Any other path or method is 404 or 405.
func (s *Server) MetricsHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /metrics", s.metrics)
	return mux
}

// Metrics holds the process's operational counters, served at GET /metrics
// in the Prometheus text format. There is one per process, like the read
// models it reports on; cmd/crossrank points it at the event store
// (SetStream) and has the command handler count its appends here
// (HandlerHooks).
var Metrics = &Registry{}

// Registry is the set of counters behind GET /metrics. The zero value is
// ready to use.
type Registry struct {
	conflicts atomic.Uint64 // appends refused by a failed expectation
	chained   atomic.Uint64 // appends sent as links of a chain

	loginFailures       atomic.Uint64 // wrong username or password
	loginClientRefused  atomic.Uint64 // 429: this account from this address failed too often
	loginAddressRefused atomic.Uint64 // 429: this address failed too often
	stream              atomic.Pointer[StreamHead]

	mu       sync.Mutex
	commands map[string]*commandStats // by action name
}

// StreamHead reports the newest sequence of the event stream, which the
// projection lag is measured against (a *jetstream.Store).
type StreamHead interface {
	LastSequence(ctx context.Context) (uint64, error)
}

// SetStream tells the registry where the stream ends; without it (or with
// nil) /metrics reports no projection lag.
func (m *Registry) SetStream(h StreamHead) {
	if h == nil {
		m.stream.Store(nil)
		return
	}
	m.stream.Store(&h)
}

// latencyBuckets are the upper bounds (seconds) of the command latency
// histogram: a command loads, decides and appends with an fsync, so most
// take milliseconds; the top buckets catch retries and a slow cluster.
var latencyBuckets = []float64{0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10}

// commandStats is one command's latency histogram and outcomes.
type commandStats struct {
	buckets  []uint64 // counts per latencyBuckets bound, not cumulative
	count    uint64
	sum      float64
	statuses map[int]uint64 // by HTTP status the outcome maps to
	replayed uint64
}

// observeCommand records one run of the named command: how long it took
// and the HTTP status its outcome maps to (200 for success, whatever the
// API answered).
func (m *Registry) observeCommand(name string, d time.Duration, res domain.Result, err error) {
	status := httpx.Status(err)
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.commands == nil {
		m.commands = map[string]*commandStats{}
	}
	c := m.commands[name]
	if c == nil {
		c = &commandStats{buckets: make([]uint64, len(latencyBuckets)), statuses: map[int]uint64{}}
		m.commands[name] = c
	}
	sec := d.Seconds()
	if i, _ := slices.BinarySearch(latencyBuckets, sec); i < len(latencyBuckets) {
		c.buckets[i]++
	}
	c.count++
	c.sum += sec
	c.statuses[status]++
	if err == nil && res.Replayed {
		c.replayed++
	}
}

// LoginFailed counts a wrong username or password.
func (m *Registry) LoginFailed() { m.loginFailures.Add(1) }

// LoginThrottled counts a sign-in refused by the named limit.
func (m *Registry) LoginThrottled(limit string) {
	if limit == auth.LimitAddress {
		m.loginAddressRefused.Add(1)
		return
	}
	m.loginClientRefused.Add(1)
}

// HandlerHooks returns the hooks through which the command handler
// counts its appends here (domain.WithHooks): every append a failed
// expectation refused, retries included (the handler retries a conflict
// itself, so the commands' outcomes show only those it gave up on), and
// every append sent as a link of a chain.
func (m *Registry) HandlerHooks() domain.Hooks {
	return domain.Hooks{
		Conflict: func() { m.conflicts.Add(1) },
		Chained:  func() { m.chained.Add(1) },
	}
}

// lagSettle is how long /metrics waits for the read models to apply what
// the stream already holds before it reports them behind: a write that
// landed a moment before the scrape is not lag.
const lagSettle = 250 * time.Millisecond

// metrics serves GET /metrics in the Prometheus text exposition format
// (version 0.0.4). It is public like /healthz; keep it off the internet at
// the proxy (docs/deploy.md).
func (s *Server) metrics(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	var b strings.Builder
	Metrics.writeCommands(&b)
	p := promWriter{&b}
	p.family("crossrank_append_conflicts_total", "counter", "Appends refused because the aggregate changed since it was loaded (each retry counts).")
	p.sample("crossrank_append_conflicts_total", nil, float64(Metrics.conflicts.Load()))
	p.family("crossrank_appends_chained_total", "counter", "Appends sent as links of a chain: right behind the append before them, without waiting for its answer.")
	p.sample("crossrank_appends_chained_total", nil, float64(Metrics.chained.Load()))
	p.family("crossrank_login_failures_total", "counter", "Sign-ins refused for a wrong username or password.")
	p.sample("crossrank_login_failures_total", nil, float64(Metrics.loginFailures.Load()))
	p.family("crossrank_login_throttled_total", "counter", "Sign-ins answered 429 because the client failed too often, by limit: one account from one address, or one address.")
	p.sample("crossrank_login_throttled_total", []string{"limit", auth.LimitClient}, float64(Metrics.loginClientRefused.Load()))
	p.sample("crossrank_login_throttled_total", []string{"limit", auth.LimitAddress}, float64(Metrics.loginAddressRefused.Load()))
	p.family("crossrank_sse_clients", "gauge", "Open live-update streams (GET /events).")
	p.sample("crossrank_sse_clients", nil, float64(s.site.Streams()))
	s.writeProjection(ctx, p)
	writePageCache(p, s.site.CacheStats())
	p.family("go_goroutines", "gauge", "Goroutines that currently exist.")
	p.sample("go_goroutines", nil, float64(runtime.NumGoroutine()))
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = io.WriteString(w, b.String())
}

// writeProjection reports the read models: their position, how far they
// are behind the stream, and the webhook deliveries they recorded.
func (s *Server) writeProjection(ctx context.Context, p promWriter) {
	if s.read == nil {
		return
	}
	applied, _ := s.read.Checkpoint()
	p.family("crossrank_projection_checkpoint", "gauge", "Stream sequence of the last event the read models applied.")
	p.sample("crossrank_projection_checkpoint", nil, float64(applied))
	if h := Metrics.stream.Load(); h != nil {
		up := 0.0
		last, err := (*h).LastSequence(ctx)
		if err == nil {
			up = 1
		}
		p.family("crossrank_event_store_up", "gauge", "1 when the event store answered this scrape, else 0.")
		p.sample("crossrank_event_store_up", nil, up)
		if err == nil {
			lag, behind := s.projectionLag(ctx, last)
			p.family("crossrank_stream_last_sequence", "gauge", "Sequence of the newest event in the stream.")
			p.sample("crossrank_stream_last_sequence", nil, float64(last))
			p.family("crossrank_projection_lag_events", "gauge", "Events in the stream the read models have not applied yet.")
			p.sample("crossrank_projection_lag_events", nil, float64(lag))
			p.family("crossrank_projection_lag_seconds", "gauge", "While events wait: seconds since the read models last applied one; 0 when caught up.")
			p.sample("crossrank_projection_lag_seconds", nil, behind.Seconds())
		}
	}
	p.family("crossrank_webhook_deliveries_total", "counter", "Webhook deliveries recorded in the stream, by outcome.")
	rows, err := s.read.DB().QueryContext(ctx, "SELECT ok, COUNT(*) FROM webhook_deliveries GROUP BY ok")
	if err != nil {
		s.log.Warn("metrics: counting webhook deliveries", "err", err)
		return
	}
	defer rows.Close()
	counts := map[string]float64{"delivered": 0, "failed": 0}
	for rows.Next() {
		var ok bool
		var n int64
		if rows.Scan(&ok, &n) != nil {
			continue
		}
		if ok {
			counts["delivered"] = float64(n)
		} else {
			counts["failed"] = float64(n)
		}
	}
	for _, outcome := range []string{"delivered", "failed"} {
		p.sample("crossrank_webhook_deliveries_total", []string{"outcome", outcome}, counts[outcome])
	}
}

// processStart bounds the projection lag in seconds: read models that have
// applied nothing since the process started have been behind since then.
var processStart = time.Now()

// projectionLag returns how many events the read models are behind last,
// and for how long they have not applied any, after giving them lagSettle
// to catch up.
func (s *Server) projectionLag(ctx context.Context, last uint64) (uint64, time.Duration) {
	if lag, _ := s.read.Lag(last); lag == 0 {
		return 0, 0
	}
	wctx, cancel := context.WithTimeout(ctx, lagSettle)
	defer cancel()
	_ = s.read.WaitFor(wctx, last)
	lag, idle := s.read.Lag(last)
	return lag, min(idle, time.Since(processStart))
}
