package web

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/crossrank/crossrank/web/auth"
)

func TestCrossOriginPostRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cases := []struct {
		name   string
		header http.Header
		want   int
	}{
		{"sec-fetch-site cross-site", http.Header{"Sec-Fetch-Site": {"cross-site"}}, http.StatusForbidden},
		{"sec-fetch-site same-site", http.Header{"Sec-Fetch-Site": {"same-site"}}, http.StatusForbidden},
		{"origin mismatch", http.Header{"Origin": {"https://evil.example"}}, http.StatusForbidden},
		{"same origin", http.Header{"Sec-Fetch-Site": {"same-origin"}}, http.StatusSeeOther},
		{"origin matches host", http.Header{"Origin": {"http://example.com"}}, http.StatusSeeOther},
		{"no browser headers", nil, http.StatusSeeOther},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := e.client()
			h := http.Header{"Content-Type": {"application/x-www-form-urlencoded"}}
			for k, v := range tc.header {
				h[k] = v
			}
			form := url.Values{"username": {"bob"}, "password": {testPassword}}.Encode()
			res, _ := c.do(http.MethodPost, "/login", strings.NewReader(form), h)
			if res.StatusCode != tc.want {
				t.Fatalf("status %d, want %d", res.StatusCode, tc.want)
			}
			if tc.want == http.StatusForbidden && c.cookies[auth.CookieName] != nil {
				t.Error("refused request still signed in")
			}
		})
	}

	t.Run("api", func(t *testing.T) {
		c := e.client()
		c.login("alice")
		before := e.lastSeq()
		res, body := c.postJSON("/api/v1/proposals", map[string]any{"ranking": testRanking, "entry": "x", "title": "t"},
			http.Header{"Origin": {"https://evil.example"}, "Sec-Fetch-Site": {"cross-site"}})
		if res.StatusCode != http.StatusForbidden {
			t.Fatalf("status %d, want 403", res.StatusCode)
		}
		decodeProblem(t, res, body)
		if after := e.lastSeq(); after != before {
			t.Errorf("a refused cross-origin request appended events (%d → %d)", before, after)
		}
	})
}

func TestSecurityHeaders(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.client()
	res, body := c.do(http.MethodGet, "/login", nil, nil)
	csp := res.Header.Get("Content-Security-Policy")
	m := regexp.MustCompile(`script-src 'self' 'nonce-([A-Za-z0-9+/=]+)'`).FindStringSubmatch(csp)
	if m == nil {
		t.Fatalf("CSP has no script nonce: %q", csp)
	}
	for _, want := range []string{"default-src 'self'", "style-src 'self' 'nonce-" + m[1] + "'", "frame-ancestors 'none'",
		"base-uri 'none'", "form-action 'self'", "img-src 'self' data:"} {
		if !strings.Contains(csp, want) {
			t.Errorf("CSP %q lacks %q", csp, want)
		}
	}
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := doc.Find("script[src]").Attr("nonce"); n != m[1] {
		t.Errorf("script nonce %q, CSP nonce %q", n, m[1])
	}
	if doc.Find("[style]").Length() > 0 {
		t.Error("inline style attribute: the CSP blocks it")
	}
	for h, want := range map[string]string{
		"X-Content-Type-Options": "nosniff", "Referrer-Policy": "same-origin", "X-Frame-Options": "DENY",
	} {
		if got := res.Header.Get(h); got != want {
			t.Errorf("%s = %q, want %q", h, got, want)
		}
	}
	res2, _ := c.do(http.MethodGet, "/login", nil, nil)
	if res2.Header.Get("Content-Security-Policy") == csp {
		t.Error("two responses share a nonce")
	}
	if res.Header.Get("X-Request-Id") == "" {
		t.Error("no X-Request-Id")
	}
}

func TestHSTSWhenSecure(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *Config) { c.Secure = true })
	res, _ := e.client().do(http.MethodGet, "/healthz", nil, nil)
	if res.Header.Get("Strict-Transport-Security") == "" {
		t.Error("no HSTS with Secure")
	}
}

func TestPanicBecomes500Page(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.srv.mux.HandleFunc("GET /test/panic", func(http.ResponseWriter, *http.Request) { panic("boom") })
	res, body := e.client().do(http.MethodGet, "/test/panic", nil, http.Header{"Accept-Language": {"zh-CN"}})
	if res.StatusCode != http.StatusInternalServerError {
		t.Fatalf("status %d, want 500", res.StatusCode)
	}
	doc, _ := goquery.NewDocumentFromReader(strings.NewReader(body))
	id := doc.Find(`[data-testid="request-id"]`).Text()
	if id == "" || id != res.Header.Get("X-Request-Id") {
		t.Errorf("page request id %q, header %q", id, res.Header.Get("X-Request-Id"))
	}
	if strings.Contains(body, "boom") {
		t.Error("the panic value reached the page")
	}
	if !strings.Contains(body, "出错了") {
		t.Error("the error page is not in Chinese")
	}
	logs := e.logs.String()
	if !strings.Contains(logs, "panic") || !strings.Contains(logs, "request_id="+id) || !strings.Contains(logs, "boom") {
		t.Errorf("panic not logged with its request id:\n%s", logs)
	}
}

func TestRequestLog(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.client().do(http.MethodGet, "/healthz", nil, nil)
	if !regexp.MustCompile(`msg="http request" method=GET path=/healthz status=200 duration=\S+`).MatchString(e.logs.String()) {
		t.Errorf("no request line in the log:\n%s", e.logs.String())
	}
}

func TestNotFoundPage(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	res, body := e.client().do(http.MethodGet, "/no/such/page", nil, nil)
	if res.StatusCode != http.StatusNotFound || !strings.Contains(body, `data-testid="error-page"`) {
		t.Errorf("status %d, body %.200s", res.StatusCode, body)
	}
	res, body = e.client().do(http.MethodGet, "/api/v1/nothing", nil, nil)
	if p := decodeProblem(t, res, body); p.Status != http.StatusNotFound {
		t.Errorf("API 404: %+v", p)
	}
}

func TestHealth(t *testing.T) {
	t.Parallel()
	var notReady error
	e := newEnv(t, func(c *Config) { c.Ready = func(context.Context) error { return notReady } })
	c := e.client()
	check := func(path string, want int, wantBody string) {
		t.Helper()
		res, body := c.do(http.MethodGet, path, nil, nil)
		if res.StatusCode != want || !strings.Contains(body, wantBody) {
			t.Errorf("%s: %d %q, want %d %q", path, res.StatusCode, body, want, wantBody)
		}
	}
	check("/healthz", http.StatusOK, "ok")
	check("/readyz", http.StatusOK, "ready")
	notReady = errors.New("projections rebuilding")
	check("/healthz", http.StatusOK, "ok")
	check("/readyz", http.StatusServiceUnavailable, "projections rebuilding")
	// A server whose first pages are being warmed is not ready either,
	// until KeepWarm's first pass ends (site's TestWarmingHoldsReadiness).
	notReady = nil
	e.srv.ExpectWarm()
	check("/readyz", http.StatusServiceUnavailable, "warming the pages readers open first")
}
