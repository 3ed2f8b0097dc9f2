package web

import (
	"context"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/web/auth"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/ui"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
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
	s.metricsHandler.ServeHTTP(w, r)
}

// MetricsHandler serves GET /metrics alone, without the site's middleware
// (no sessions, no language): mount it on a private listener when
// Config.SeparateMetrics is set. Any other path or method is 404 or 405.
func (s *Server) MetricsHandler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", s.metricsHandler)
	return mux
}

// Metrics are the process's operational counters, served at GET /metrics
// by the Prometheus client library, with the Go runtime's (go_*) and the
// process's (process_*) beside them. The command handler reports to them
// through HandlerHooks; the web server adds what it reads at scrape time
// (the read models, the live streams, the page cache).
type Metrics struct {
	reg    *prometheus.Registry
	stream atomic.Pointer[StreamHead]

	conflicts       prometheus.Counter
	chained         prometheus.Counter
	loginFailures   prometheus.Counter
	loginThrottled  *prometheus.CounterVec
	bearerFailures  prometheus.Counter
	bearerThrottled prometheus.Counter
	commandDuration *prometheus.HistogramVec
	commands        *prometheus.CounterVec
	replayed        *prometheus.CounterVec
}

// NewMetrics registers the counters on reg, with the Go runtime and
// process collectors; nil reg: a registry of its own.
func NewMetrics(reg *prometheus.Registry) *Metrics {
	if reg == nil {
		reg = prometheus.NewRegistry()
	}
	m := &Metrics{reg: reg,
		conflicts: prometheus.NewCounter(prometheus.CounterOpts{Name: "crossrank_append_conflicts_total",
			Help: "Appends refused because the aggregate changed since it was loaded (each retry counts)."}),
		chained: prometheus.NewCounter(prometheus.CounterOpts{Name: "crossrank_appends_chained_total",
			Help: "Appends sent as links of a chain: right behind the append before them, without waiting for its answer."}),
		loginFailures: prometheus.NewCounter(prometheus.CounterOpts{Name: "crossrank_login_failures_total",
			Help: "Sign-ins refused for a wrong username or password."}),
		loginThrottled: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "crossrank_login_throttled_total",
			Help: "Sign-ins answered 429 because the client failed too often, by limit: one account from one address, or one address."},
			[]string{"limit"}),
		bearerFailures: prometheus.NewCounter(prometheus.CounterOpts{Name: "crossrank_bearer_failures_total",
			Help: "Requests refused (401) because their bearer token did not verify."}),
		bearerThrottled: prometheus.NewCounter(prometheus.CounterOpts{Name: "crossrank_bearer_throttled_total",
			Help: "Requests answered 429 because bearer tokens from their address failed too often."}),
		// A command loads, decides and appends with an fsync, so most take
		// milliseconds; the top buckets catch retries and a slow cluster.
		commandDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "crossrank_command_duration_seconds",
			Help:    "Time to load, decide and append a command, retries included; the wait for the read models is not counted.",
			Buckets: []float64{0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10}},
			[]string{"command"}),
		commands: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "crossrank_commands_total",
			Help: "Commands run, by command and the HTTP status their outcome maps to (200: success)."},
			[]string{"command", "status"}),
		replayed: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "crossrank_commands_replayed_total",
			Help: "Commands that were retries of one already stored (same idempotency key): nothing new was appended."},
			[]string{"command"}),
	}
	reg.MustRegister(m.conflicts, m.chained, m.loginFailures, m.loginThrottled, m.bearerFailures, m.bearerThrottled, m.commandDuration, m.commands, m.replayed,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	// Both limits are reported from the start, at 0 until one refuses.
	m.loginThrottled.WithLabelValues(auth.LimitClient)
	m.loginThrottled.WithLabelValues(auth.LimitAddress)
	return m
}

// StreamHead reports the newest sequence of the event stream, which the
// projection lag is measured against (a *jetstream.Store).
type StreamHead interface {
	LastSequence(ctx context.Context) (uint64, error)
}

// SetStream tells the metrics where the stream ends; without it (or with
// nil) /metrics reports no projection lag.
func (m *Metrics) SetStream(h StreamHead) {
	if h == nil {
		m.stream.Store(nil)
		return
	}
	m.stream.Store(&h)
}

// HandlerHooks returns the hooks through which the command handler
// counts its appends here (handler.WithHooks): every append a failed
// expectation refused, retries included (the handler retries a conflict
// itself, so the commands' outcomes show only those it gave up on), and
// every append sent as a link of a chain.
func (m *Metrics) HandlerHooks() handler.Hooks {
	return handler.Hooks{Conflict: m.conflicts.Inc, Chained: m.chained.Inc}
}

// observeCommand records one run of the named command: how long it took
// and the HTTP status its outcome maps to (200 for success, whatever the
// API answered).
func (m *Metrics) observeCommand(name string, d time.Duration, res handler.Result, err error) {
	m.commandDuration.WithLabelValues(name).Observe(d.Seconds())
	m.commands.WithLabelValues(name, strconv.Itoa(httpx.Status(err))).Inc()
	replayed := m.replayed.WithLabelValues(name) // 0 for every command seen
	if err == nil && res.Replayed {
		replayed.Inc()
	}
}

// LoginFailed counts a wrong username or password.
func (m *Metrics) LoginFailed() { m.loginFailures.Inc() }

// LoginThrottled counts a sign-in refused by the named limit.
func (m *Metrics) LoginThrottled(limit string) {
	if limit != auth.LimitAddress {
		limit = auth.LimitClient
	}
	m.loginThrottled.WithLabelValues(limit).Inc()
}

// BearerFailed counts a bearer token that did not verify.
func (m *Metrics) BearerFailed() { m.bearerFailures.Inc() }

// BearerThrottled counts a request refused because its address's bearer
// tokens failed too often.
func (m *Metrics) BearerThrottled() { m.bearerThrottled.Inc() }

// handler serves the registry in the Prometheus text format (or what the
// scraper negotiates). It is public like /healthz; keep it off the
// internet at the proxy (docs/deploy.md).
func (m *Metrics) handler(log promhttp.Logger) http.Handler {
	h := promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{ErrorLog: log, ErrorHandling: promhttp.ContinueOnError})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		h.ServeHTTP(w, r)
	})
}
