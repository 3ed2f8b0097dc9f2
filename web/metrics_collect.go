package web

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// scrapeCollector reports, at each scrape, what the server reads rather
// than counts: the read models' position and lag, the webhook deliveries
// they recorded, the live streams and the page cache. It describes no
// metric up front (an unchecked collector): which families it reports
// depends on what is configured and reachable.
type scrapeCollector struct{ s *Server }

func (scrapeCollector) Describe(chan<- *prometheus.Desc) {}

func (c scrapeCollector) Collect(ch chan<- prometheus.Metric) {
	emit := func(name, help string, typ prometheus.ValueType, v float64, labels ...string) {
		var names []string
		var values []string
		for i := 0; i+1 < len(labels); i += 2 {
			names, values = append(names, labels[i]), append(values, labels[i+1])
		}
		ch <- prometheus.MustNewConstMetric(prometheus.NewDesc(name, help, names, nil), typ, v, values...)
	}
	s := c.s
	emit("crossrank_sse_clients", "Open live-update streams (GET /events).", prometheus.GaugeValue, float64(s.site.Streams()))
	st := s.site.CacheStats()
	emit("crossrank_page_cache_bytes", "Bytes held by cached public pages and API answers, compressed copies included.", prometheus.GaugeValue, float64(st.Bytes))
	emit("crossrank_page_cache_max_bytes", "The bound of the public page cache (--page-cache-bytes).", prometheus.GaugeValue, float64(max(st.Max, 0)))
	emit("crossrank_page_cache_entries", "Public pages and API answers in the cache.", prometheus.GaugeValue, float64(st.Entries))
	emit("crossrank_page_cache_hits_total", "Public bodies served without building them.", prometheus.CounterValue, float64(st.Hits))
	emit("crossrank_page_cache_misses_total", "Public bodies built because the cache did not hold them.", prometheus.CounterValue, float64(st.Misses))
	emit("crossrank_page_cache_evictions_total", "Cached public bodies dropped, least recently used first, to stay within the bound.", prometheus.CounterValue, float64(st.Evictions))
	if s.read == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	applied, _ := s.read.Checkpoint()
	emit("crossrank_projection_checkpoint", "Stream sequence of the last event the read models applied.", prometheus.GaugeValue, float64(applied))
	if h := s.metrics.stream.Load(); h != nil {
		up := 0.0
		last, err := (*h).LastSequence(ctx)
		if err == nil {
			up = 1
		}
		emit("crossrank_event_store_up", "1 when the event store answered this scrape, else 0.", prometheus.GaugeValue, up)
		if err == nil {
			lag, behind := s.projectionLag(ctx, last)
			emit("crossrank_stream_last_sequence", "Sequence of the newest event in the stream.", prometheus.GaugeValue, float64(last))
			emit("crossrank_projection_lag_events", "Events in the stream the read models have not applied yet.", prometheus.GaugeValue, float64(lag))
			emit("crossrank_projection_lag_seconds", "While events wait: seconds since the read models last applied one; 0 when caught up.", prometheus.GaugeValue, behind.Seconds())
		}
	}
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
		emit("crossrank_webhook_deliveries_total", "Webhook deliveries recorded in the stream, by outcome.", prometheus.CounterValue, counts[outcome], "outcome", outcome)
	}
}

// lagSettle is how long /metrics waits for the read models to apply what
// the stream already holds before it reports them behind: a write that
// landed a moment before the scrape is not lag.
const lagSettle = 250 * time.Millisecond

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
