package webtest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/crossrank/crossrank/web/auth"
	"github.com/crossrank/crossrank/web/command"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/webtest/openapicheck"
)

// Client sends requests to a handler and keeps cookies like a browser.
type Client struct {
	T       *testing.T
	H       http.Handler
	Cookies map[string]*http.Cookie
	Header  http.Header // sent with every request
	Peer    string      // the connection's remote address
}

var peerCounter atomic.Int32

// Client returns a client of the env's server, from an address of its own.
func (e *Env) Client() *Client {
	return &Client{T: e.T, H: e.Srv.Handler(), Cookies: map[string]*http.Cookie{}, Header: http.Header{},
		Peer: "192.0.2." + strconv.Itoa(int(peerCounter.Add(1))%250+1) + ":40000"}
}

// Do sends a request and returns the response with its body read; an
// exchange with /api/v1 is checked against the OpenAPI document.
func (c *Client) Do(method, target string, body io.Reader, header http.Header) (*http.Response, string) {
	c.T.Helper()
	var sent []byte
	if body != nil {
		var err error
		if sent, err = io.ReadAll(body); err != nil {
			c.T.Fatal(err)
		}
	}
	r := httptest.NewRequest(method, target, bytes.NewReader(sent))
	r.RemoteAddr = c.Peer
	for k, vs := range c.Header {
		r.Header[k] = vs
	}
	for k, vs := range header {
		r.Header[k] = vs
	}
	for _, ck := range c.Cookies {
		r.AddCookie(&http.Cookie{Name: ck.Name, Value: ck.Value})
	}
	rec := httptest.NewRecorder()
	c.H.ServeHTTP(rec, r)
	res := rec.Result()
	for _, ck := range res.Cookies() {
		if ck.MaxAge < 0 {
			delete(c.Cookies, ck.Name)
		} else {
			c.Cookies[ck.Name] = ck
		}
	}
	b, _ := io.ReadAll(res.Body)
	openapicheck.Check(c.T, method, target, r.Header, sent, res, b)
	return res, string(b)
}

// PostForm posts url-encoded values.
func (c *Client) PostForm(target string, v url.Values) (*http.Response, string) {
	return c.Do(http.MethodPost, target, strings.NewReader(v.Encode()),
		http.Header{"Content-Type": {"application/x-www-form-urlencoded"}})
}

// PostJSON posts v (a string is sent as it is).
func (c *Client) PostJSON(target string, v any, header http.Header) (*http.Response, string) {
	c.T.Helper()
	var body []byte
	if s, ok := v.(string); ok {
		body = []byte(s)
	} else {
		var err error
		if body, err = json.Marshal(v); err != nil {
			c.T.Fatal(err)
		}
	}
	h := http.Header{"Content-Type": {"application/json"}}
	for k, vs := range header {
		h[k] = vs
	}
	return c.Do(http.MethodPost, target, bytes.NewReader(body), h)
}

// Login signs in and fails the test unless it worked.
func (c *Client) Login(user string) {
	c.T.Helper()
	res, body := c.PostForm("/login", url.Values{"username": {user}, "password": {Password}})
	if res.StatusCode != http.StatusSeeOther || c.Cookies[auth.CookieName] == nil {
		c.T.Fatalf("login %s: status %d, body %.300s", user, res.StatusCode, body)
	}
}

// SignedIn reports whether the client's session counts, asking an API read
// that needs a user (404 for a missing proposal when signed in, 401 not).
func (c *Client) SignedIn() bool {
	c.T.Helper()
	res, body := c.Do(http.MethodGet, "/api/v1/proposals/nope", nil, nil)
	switch res.StatusCode {
	case http.StatusNotFound:
		return true
	case http.StatusUnauthorized:
		return false
	}
	c.T.Fatalf("probe: status %d, body %.300s", res.StatusCode, body)
	return false
}

// DecodeProblem reads a problem+json body.
func DecodeProblem(t *testing.T, res *http.Response, body string) httpx.Problem {
	t.Helper()
	if ct := res.Header.Get("Content-Type"); ct != "application/problem+json" {
		t.Fatalf("Content-Type = %q, want application/problem+json; body %.300s", ct, body)
	}
	var p httpx.Problem
	if err := json.Unmarshal([]byte(body), &p); err != nil {
		t.Fatalf("problem body %q: %v", body, err)
	}
	if p.Status != res.StatusCode {
		t.Errorf("problem status %d, response %d", p.Status, res.StatusCode)
	}
	return p
}

// OpenProposal opens a proposal for a new entry as c's user via the API
// and returns its id.
func (e *Env) OpenProposal(c *Client, entry string) string {
	e.T.Helper()
	res, body := c.PostJSON("/api/v1/proposals", map[string]any{
		"ranking": Ranking, "entry": entry, "title": "Add " + entry,
		"new_entry": map[string]any{"name": map[string]string{"zh": entry, "en": entry}, "category": "cloud"},
	}, nil)
	if res.StatusCode != http.StatusCreated {
		e.T.Fatalf("open proposal: status %d, body %s", res.StatusCode, body)
	}
	var cr command.Response
	if err := json.Unmarshal([]byte(body), &cr); err != nil {
		e.T.Fatal(err)
	}
	return cr.ID
}

// Reviewable opens a proposal as c's user with one evidence item and a
// score change, and submits it; it returns the proposal id.
func (e *Env) Reviewable(c *Client, entry string) string {
	e.T.Helper()
	id := e.OpenProposal(c, entry)
	steps := []struct {
		path string
		body any
	}{
		{"/evidence", map[string]any{"claim": "cheap", "source_name": "Market overview", "excerpt": "it is cheap", "observed_on": "2026-01-31"}},
		{"/changes", map[string]any{"criterion": "price", "to": 8, "rationale": "cheap", "evidence": []string{"e1"}}},
		{"/submit", map[string]any{}},
	}
	for _, s := range steps {
		res, body := c.PostJSON("/api/v1/proposals/"+id+s.path, s.body, nil)
		if res.StatusCode/100 != 2 {
			e.T.Fatalf("%s: status %d, body %s", s.path, res.StatusCode, body)
		}
	}
	return id
}
