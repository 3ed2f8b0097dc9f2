package main

import (
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"testing"
)

// TestSignInSurvivesRestart: with no CROSSRANK_SESSION_KEYS, serve keeps a
// session key in the data directory and the sessions in the NATS bucket, so
// a sign-in still counts after a restart; signing out then ends it.
func TestSignInSurvivesRestart(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	srv := startServe(t, "serve", data)
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := noRedirect.PostForm(srv.url+"/login", url.Values{"username": {"editor"}, "password": {demoPassword}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	var cookie *http.Cookie
	for _, c := range res.Cookies() {
		if c.Name == "crossrank_session" {
			cookie = c
		}
	}
	if res.StatusCode != http.StatusSeeOther || cookie == nil {
		t.Fatalf("sign in: %d, cookies %v", res.StatusCode, res.Cookies())
	}
	desk := func(method, path string) int {
		t.Helper()
		req, _ := http.NewRequest(method, srv.url+path, nil)
		req.AddCookie(cookie)
		res, err := noRedirect.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	if got := desk(http.MethodGet, "/desk"); got != http.StatusOK {
		t.Fatalf("GET /desk signed in: %d", got)
	}
	if fi, err := os.Stat(filepath.Join(data, "session.key")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("session.key: %v, %v; want a file only its owner reads", fi, err)
	}

	srv.stop()
	srv.restart()
	if got := desk(http.MethodGet, "/desk"); got != http.StatusOK {
		t.Fatalf("GET /desk with the same cookie after a restart: %d, want 200", got)
	}
	if got := desk(http.MethodPost, "/logout"); got != http.StatusSeeOther {
		t.Fatalf("POST /logout: %d", got)
	}
	if got := desk(http.MethodGet, "/desk"); got != http.StatusSeeOther {
		t.Fatalf("GET /desk after signing out: %d, want a redirect to sign in", got)
	}
}
