package web

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/projections"
)

func TestMetricsExposition(t *testing.T) {
	t.Parallel()
	m := NewMetrics(nil)
	m.observeCommand("proposal.open", 3*time.Millisecond, handler.Result{}, nil)
	m.observeCommand("proposal.open", 30*time.Millisecond, handler.Result{Replayed: true}, nil)
	m.observeCommand("proposal.open", 20*time.Second, handler.Result{}, events.ErrUnavailable)
	m.observeCommand("proposal.vote", time.Millisecond, handler.Result{}, domain.ErrInvalid)
	rec := httptest.NewRecorder()
	m.handler(nil).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	got := rec.Body.String()
	for _, want := range []string{
		"# TYPE crossrank_command_duration_seconds histogram\n",
		`crossrank_command_duration_seconds_bucket{command="proposal.open",le="0.0025"} 0` + "\n",
		`crossrank_command_duration_seconds_bucket{command="proposal.open",le="0.005"} 1` + "\n",
		`crossrank_command_duration_seconds_bucket{command="proposal.open",le="0.05"} 2` + "\n",
		`crossrank_command_duration_seconds_bucket{command="proposal.open",le="10"} 2` + "\n",
		`crossrank_command_duration_seconds_bucket{command="proposal.open",le="+Inf"} 3` + "\n",
		`crossrank_command_duration_seconds_count{command="proposal.open"} 3` + "\n",
		`crossrank_command_duration_seconds_bucket{command="proposal.vote",le="0.001"} 1` + "\n",
		`crossrank_commands_total{command="proposal.open",status="200"} 2` + "\n",
		`crossrank_commands_total{command="proposal.open",status="503"} 1` + "\n",
		`crossrank_commands_total{command="proposal.vote",status="422"} 1` + "\n",
		`crossrank_commands_replayed_total{command="proposal.open"} 1` + "\n",
		`crossrank_commands_replayed_total{command="proposal.vote"} 0` + "\n",
		// The Go runtime and the process, as every Prometheus user expects.
		"# TYPE go_goroutines gauge\n",
		"# TYPE process_cpu_seconds_total counter\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("exposition lacks %q:\n%s", want, got)
		}
	}
	checkExposition(t, got)
}

// TestMetricsEndpoint runs commands through the API and reads them back
// from GET /metrics, with the read models' position, lag and webhook
// deliveries, and the conflicts the store refused.
func TestMetricsEndpoint(t *testing.T) {
	t.Parallel()
	var rs *projections.Store
	m := NewMetrics(nil)
	e := newEnv(t, func(c *Config) {
		c.Metrics = m
		var err error
		if rs, err = projections.Open(filepath.Join(t.TempDir(), "read.db")); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { rs.Close() })
		c.Read = rs
	})
	m.SetStream(e.store)
	ctx := testContext(t)
	before := scrape(t, e)

	c := e.client()
	c.login("alice")
	p := e.openProposal(c, "metrics-entry")
	if res, body := c.postJSON("/api/v1/proposals", map[string]any{"ranking": testRanking, "entry": "x", "title": ""}, nil); res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("invalid proposal: %d %s", res.StatusCode, body)
	}
	// A handler with a stale cache, as another replica's would be: its
	// append is refused once (counted through its hooks), then retried on
	// the stored state.
	stale := handler.New(e.store, nil, handler.WithHooks(m.HandlerHooks()))
	alice := domain.Actor{Name: "alice", Roles: []string{domain.RoleEditor}}
	for i, h := range []*handler.Handler{stale, e.cmd, stale} {
		if _, err := h.AddEvidence(ctx, alice, domain.AddEvidence{CommandID: events.NewID(time.Now()), Proposal: p,
			Claim: events.Text{En: fmt.Sprintf("claim %d", i)}, SourceName: "Market overview", Excerpt: "it is cheap", ObservedOn: "2026-01-31"}); err != nil {
			t.Fatalf("evidence %d: %v", i, err)
		}
	}

	mid := scrape(t, e)
	last := mid["crossrank_stream_last_sequence"]
	for name, want := range map[string]float64{
		`crossrank_commands_total{command="proposal.open",status="200"}`:               1,
		`crossrank_commands_total{command="proposal.open",status="422"}`:               1,
		`crossrank_command_duration_seconds_count{command="proposal.open"}`:            2,
		`crossrank_command_duration_seconds_bucket{command="proposal.open",le="+Inf"}`: 2,
		"crossrank_append_conflicts_total":                                             1,
	} {
		if got := mid[name] - before[name]; got != want {
			t.Errorf("%s went up by %v, want %v", name, got, want)
		}
	}
	if last == 0 || mid["crossrank_event_store_up"] != 1 || mid["crossrank_projection_checkpoint"] != 0 ||
		mid["crossrank_projection_lag_events"] != last || mid["crossrank_projection_lag_seconds"] <= 0 {
		t.Errorf("read models that applied nothing: %v", mid)
	}

	// Apply the stream and a webhook delivery: caught up, one delivery.
	wh, err := events.New(events.NewID(time.Now()), time.Now(), "system", testRanking,
		&events.WebhookDelivered{URL: "https://example.org/hook", Ranking: testRanking, Edition: 1, Status: 200, Attempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.store.Append(ctx, nil, wh); err != nil {
		t.Fatal(err)
	}
	var evs []events.Event
	if err := e.store.Replay(ctx, 1, func(ev events.Event) error { evs = append(evs, ev); return nil }); err != nil {
		t.Fatal(err)
	}
	if err := rs.Apply(ctx, evs); err != nil {
		t.Fatal(err)
	}
	after := scrape(t, e)
	for name, want := range map[string]float64{
		"crossrank_projection_checkpoint":                         float64(len(evs)),
		"crossrank_stream_last_sequence":                          float64(len(evs)),
		"crossrank_projection_lag_events":                         0,
		"crossrank_projection_lag_seconds":                        0,
		`crossrank_webhook_deliveries_total{outcome="delivered"}`: 1,
		`crossrank_webhook_deliveries_total{outcome="failed"}`:    0,
		"crossrank_sse_clients":                                   0, // no stream is open
		"crossrank_event_store_up":                                1,
	} {
		if got, ok := after[name]; !ok || got != want {
			t.Errorf("%s = %v (present %v), want %v", name, got, ok, want)
		}
	}
}

// scrape reads GET /metrics, checks its format and returns the samples.
func scrape(t *testing.T, e *env) map[string]float64 {
	t.Helper()
	res, body := e.client().do(http.MethodGet, "/metrics", nil, nil)
	if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/plain; version=0.0.4") {
		t.Fatalf("GET /metrics: %d %s\n%s", res.StatusCode, res.Header.Get("Content-Type"), body)
	}
	return checkExposition(t, body)
}

var sampleLine = regexp.MustCompile(`^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\.)*"(?:,[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\.)*")*\})? (\S+)$`)

// checkExposition checks the text format: every sample well formed and
// of a family declared before it with HELP and TYPE; it returns the
// samples by name and labels.
func checkExposition(t *testing.T, text string) map[string]float64 {
	t.Helper()
	typed := map[string]string{}
	out := map[string]float64{}
	for i, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		if rest, ok := strings.CutPrefix(line, "# TYPE "); ok {
			name, typ, _ := strings.Cut(rest, " ")
			typed[name] = typ
			continue
		}
		if strings.HasPrefix(line, "# HELP ") {
			continue
		}
		m := sampleLine.FindStringSubmatch(line)
		if m == nil {
			t.Errorf("line %d is not a sample: %q", i+1, line)
			continue
		}
		family := m[1]
		for _, suffix := range []string{"_bucket", "_sum", "_count"} {
			if base, ok := strings.CutSuffix(family, suffix); ok && (typed[base] == "histogram" || typed[base] == "summary") {
				family = base
			}
		}
		if typed[family] == "" {
			t.Errorf("line %d: sample of %s before its TYPE", i+1, family)
		}
		v, err := strconv.ParseFloat(m[3], 64)
		if err != nil {
			t.Errorf("line %d: value %q: %v", i+1, m[3], err)
		}
		out[m[1]+m[2]] = v
	}
	return out
}
