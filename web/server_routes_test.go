package web

import (
	"net/http"
	"strings"
	"testing"
)

// TestUnknownStaticIsStyled404 checks that /static/ itself and any path
// under it that is no asset answer the site's 404 page, not net/http's
// plain text, and never a listing.
func TestUnknownStaticIsStyled404(t *testing.T) {
	t.Parallel()
	c := newEnv(t).client()
	for _, target := range []string{"/static/", "/static/no-such.css", "/static/sub/"} {
		res, body := c.do(http.MethodGet, target, nil, nil)
		if res.StatusCode != http.StatusNotFound {
			t.Errorf("%s: status %d, want 404", target, res.StatusCode)
			continue
		}
		if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") ||
			!strings.Contains(body, `data-testid="error-page"`) || !strings.Contains(body, `data-status="404"`) {
			t.Errorf("%s: %s answer is not the error page: %.200s", target, ct, body)
		}
	}
}

// TestMethodNotAllowed checks that a method a route does not take answers
// 405 with Allow — the styled page on the site, problem+json on the API —
// while a path without any route stays 404.
func TestMethodNotAllowed(t *testing.T) {
	t.Parallel()
	c := newEnv(t).client()
	tests := []struct {
		method, target string
		want           int
		allow          string
		api            bool
	}{
		{http.MethodPut, "/login", 405, "GET, HEAD, POST", false},
		{http.MethodDelete, "/healthz", 405, "GET, HEAD", false},
		{http.MethodPost, "/static/app.css", 405, "GET, HEAD", false},
		{http.MethodGet, "/api/v1/proposals/x/submit", 405, "POST", true},
		{http.MethodPut, "/no-such-page", 404, "", false},
		{http.MethodPut, "/api/v1/nothing-here", 404, "", true},
	}
	for _, tc := range tests {
		res, body := c.do(tc.method, tc.target, nil, nil)
		if res.StatusCode != tc.want || res.Header.Get("Allow") != tc.allow {
			t.Errorf("%s %s: status %d Allow %q, want %d %q", tc.method, tc.target,
				res.StatusCode, res.Header.Get("Allow"), tc.want, tc.allow)
			continue
		}
		if tc.api {
			if p := decodeProblem(t, res, body); p.Status != tc.want {
				t.Errorf("%s %s: problem %+v", tc.method, tc.target, p)
			}
		} else if !strings.Contains(body, `data-testid="error-page"`) {
			t.Errorf("%s %s: not the error page: %.200s", tc.method, tc.target, body)
		}
	}
}

// TestMethodNotAllowedHome checks PUT / with the public site registered:
// the home page takes GET only.
func TestMethodNotAllowedHome(t *testing.T) {
	t.Parallel()
	e := newAdminEnv(t)
	res, body := e.client("").do(http.MethodPut, "/", nil, nil)
	if res.StatusCode != http.StatusMethodNotAllowed || res.Header.Get("Allow") != "GET, HEAD" ||
		!strings.Contains(body, `data-testid="error-page"`) {
		t.Errorf("PUT /: status %d Allow %q; body %.200s", res.StatusCode, res.Header.Get("Allow"), body)
	}
}
