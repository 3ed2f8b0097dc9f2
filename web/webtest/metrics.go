package webtest

import (
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/crossrank/crossrank/web"
	"github.com/crossrank/crossrank/web/site"
)

// Scrape reads GET /metrics, checks its format and returns the samples.
func Scrape(t *testing.T, e *Env) map[string]float64 {
	t.Helper()
	res, body := e.Client().Do(http.MethodGet, "/metrics", nil, nil)
	if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/plain; version=0.0.4") {
		t.Fatalf("GET /metrics: %d %s\n%s", res.StatusCode, res.Header.Get("Content-Type"), body)
	}
	return CheckExposition(t, body)
}

var sampleLine = regexp.MustCompile(`^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\.)*"(?:,[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\.)*")*\})? (\S+)$`)

// CheckExposition checks the text format: every sample well formed and
// of a family declared before it with HELP and TYPE; it returns the
// samples by name and labels.
func CheckExposition(t *testing.T, text string) map[string]float64 {
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

// Metrics reads srv's /metrics as a scraper does (MetricsHandler, no
// request through the site) and returns the samples: what a test outside
// package web reads where web's own tests read the server's fields.
func Metrics(t *testing.T, srv *web.Server) map[string]float64 {
	t.Helper()
	rec := httptest.NewRecorder()
	srv.MetricsHandler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("GET /metrics: %d %s", rec.Code, rec.Body)
	}
	return CheckExposition(t, rec.Body.String())
}

// CacheStats is the site's page cache as srv's /metrics reports it
// (crossrank_page_cache_*, from site.Site.CacheStats).
func CacheStats(t *testing.T, srv *web.Server) site.CacheStats {
	t.Helper()
	m := Metrics(t, srv)
	return site.CacheStats{Bytes: int(m["crossrank_page_cache_bytes"]), Max: int(m["crossrank_page_cache_max_bytes"]),
		Entries: int(m["crossrank_page_cache_entries"]), Hits: uint64(m["crossrank_page_cache_hits_total"]),
		Misses: uint64(m["crossrank_page_cache_misses_total"]), Evictions: uint64(m["crossrank_page_cache_evictions_total"])}
}

// Streams is the number of the site's open live-update streams as srv's
// /metrics reports it (crossrank_sse_clients, from site.Site.Streams).
func Streams(t *testing.T, srv *web.Server) int {
	t.Helper()
	return int(Metrics(t, srv)["crossrank_sse_clients"])
}
