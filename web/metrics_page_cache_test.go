package web

import (
	"net/http"
	"testing"
)

// TestPageCacheMetrics: /metrics reports the cache's bytes, bound,
// entries, hits, misses and evictions.
func TestPageCacheMetrics(t *testing.T) {
	t.Parallel()
	e := newSiteEnvWith(t, func(c *Config) { c.PageCacheBytes = 1 << 20 })
	for _, target := range []string{"/r/gpu-cloud", "/r/gpu-cloud", "/r/gpu-cloud?scenario=training", "/api/v1/rankings"} {
		e.get(target, "Accept-Encoding", "gzip")
	}
	res, body := e.get("/metrics")
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET /metrics: %d", res.StatusCode)
	}
	got := checkExposition(t, body)
	st := e.srv.site.CacheStats()
	for name, want := range map[string]float64{
		"crossrank_page_cache_bytes": float64(st.Bytes), "crossrank_page_cache_max_bytes": 1 << 20,
		"crossrank_page_cache_entries": 3, "crossrank_page_cache_hits_total": 1,
		"crossrank_page_cache_misses_total": 3, "crossrank_page_cache_evictions_total": 0,
	} {
		if v, ok := got[name]; !ok || v != want {
			t.Errorf("%s = %v (reported: %v), want %v", name, v, ok, want)
		}
	}
	if st.Bytes == 0 {
		t.Error("three cached bodies hold no bytes")
	}
}
