package web

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestSeparateMetrics: with Config.SeparateMetrics the site answers 404 at
// /metrics (its error page) and MetricsHandler serves the exposition;
// without it the site serves /metrics, as before.
func TestSeparateMetrics(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *Config) { c.SeparateMetrics = true })
	res, body := e.client().do(http.MethodGet, "/metrics", nil, nil)
	if res.StatusCode != http.StatusNotFound || strings.Contains(body, "crossrank_") {
		t.Errorf("site /metrics: status %d, body %.200s", res.StatusCode, body)
	}
	rec := httptest.NewRecorder()
	e.srv.MetricsHandler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "crossrank_sse_clients") {
		t.Errorf("metrics address: status %d, body %.200s", rec.Code, rec.Body.String())
	}
	rec = httptest.NewRecorder()
	e.srv.MetricsHandler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/desk", nil))
	if rec.Code != http.StatusNotFound {
		t.Errorf("metrics address serves /desk: status %d", rec.Code)
	}

	res, body = newEnv(t).client().do(http.MethodGet, "/metrics", nil, nil)
	if res.StatusCode != http.StatusOK || !strings.Contains(body, "crossrank_sse_clients") {
		t.Errorf("default site /metrics: status %d, body %.200s", res.StatusCode, body)
	}
}
