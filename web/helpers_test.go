package web

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/events/jetstream"
	"github.com/crossrank/crossrank/events/jetstream/jstest"
	"github.com/crossrank/crossrank/web/auth"
	"github.com/crossrank/crossrank/web/command"
	"github.com/crossrank/crossrank/web/httpx"
)

const testTimeout = 10 * time.Minute

// The test desk: who holds which role. eve is editor and reviewer, to show
// that a role never lets the author approve their own proposal.
var testUsers = map[string][]string{
	"alice": {domain.RoleEditor},
	"bob":   {domain.RoleReviewer},
	"carol": {domain.RoleReviewer},
	"pat":   {domain.RolePublisher},
	"eve":   {domain.RoleEditor, domain.RoleReviewer},
}

const testPassword = "correct horse battery staple"

// testHash is testPassword's argon2id hash at the smallest parameters:
// every sign-in checks it, hundreds of times in this package, and at
// production's parameters each check costs tens of milliseconds of CPU on
// purpose. TestPasswordChangeEndsOtherSessions (the password form) and
// web/auth's tests hash at production's parameters.
var testHash = sync.OnceValue(func() string {
	h, err := auth.Argon2id{Memory: 8, Time: 1, Threads: 1}.Hash(testPassword)
	if err != nil {
		panic(err)
	}
	return h
})

const testRanking = "gpu"

// env is a server over a real embedded NATS JetStream store, seeded with
// a ranking and the test users.
type env struct {
	js     *jstest.Env
	t      *testing.T
	store  *jetstream.Store
	cmd    *handler.Handler
	srv    *Server
	waiter *recordingWaiter
	logs   *syncBuffer
}

func testContext(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	t.Cleanup(cancel)
	return ctx
}

// newEnv starts a store and a server; tweak adjusts the Config.
func newEnv(t *testing.T, tweak ...func(*Config)) *env {
	t.Helper()
	js := jstest.Start(t)
	store := js.Store
	e := &env{t: t, js: js, store: store, cmd: handler.New(store, nil), waiter: &recordingWaiter{}, logs: &syncBuffer{}}
	// As in serve: commands read rankings and editions kept current by
	// the stream.
	followCtx, stopFollow := context.WithCancel(context.Background())
	followed := make(chan struct{})
	go func() { defer close(followed); _ = e.cmd.Follow(followCtx, store) }()
	t.Cleanup(func() { stopFollow(); <-followed })
	e.seed()
	cfg := Config{
		Commands:    e.cmd,
		Waiter:      e.waiter,
		Tokens:      storeTokens{store},
		Logger:      slog.New(slog.NewTextHandler(e.logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
		SessionKeys: [][]byte{bytes.Repeat([]byte("k"), 32)},
	}
	for _, f := range tweak {
		f(&cfg)
	}
	var err error
	if e.srv, err = New(cfg); err != nil {
		t.Fatalf("New: %v", err)
	}
	return e
}

func (e *env) seed() {
	ctx := testContext(e.t)
	sys := domain.System()
	def := events.RankingDefined{
		Slug:       testRanking,
		Title:      events.Text{Zh: "GPU 云", En: "GPU clouds"},
		Categories: []events.Category{{Slug: "cloud", Name: events.Text{Zh: "云", En: "Cloud"}}},
		Criteria: []events.Criterion{
			{Slug: "price", Name: events.Text{Zh: "价格", En: "Price"}, Weight: 60},
			{Slug: "speed", Name: events.Text{Zh: "速度", En: "Speed"}, Weight: 40},
		},
		Attributes: []events.AttributeDef{{Key: "billing", Name: events.Text{Zh: "计费", En: "Billing"},
			Values: []events.AttributeValue{{Value: "hourly"}, {Value: "monthly"}}}},
		Quorum: domain.DefaultQuorum,
	}
	jstest.DefineRanking(e.t, e.store, def, nil)
	for name, roles := range testUsers {
		if _, err := e.cmd.RegisterUser(ctx, sys, domain.RegisterUser{
			Username: name, DisplayName: strings.ToUpper(name[:1]) + name[1:], PasswordHash: testHash(), Roles: roles,
		}); err != nil {
			e.t.Fatalf("RegisterUser %s: %v", name, err)
		}
	}
}

// lastSeq is the store's last sequence: comparing it before and after a
// refused request shows nothing was appended.
func (e *env) lastSeq() uint64 {
	e.t.Helper()
	seq, err := e.store.LastSequence(testContext(e.t))
	if err != nil {
		e.t.Fatalf("LastSequence: %v", err)
	}
	return seq
}

// recordingWaiter stands in for the read models: it records the sequences
// a handler waited for.
type recordingWaiter struct {
	mu   sync.Mutex
	seqs []uint64
}

func (w *recordingWaiter) WaitFor(_ context.Context, seq uint64) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.seqs = append(w.seqs, seq)
	return nil
}

// storeTokens finds a token's owner by reading the log, as the users read
// model will: slow, but real.
type storeTokens struct{ store events.Store }

func (s storeTokens) TokenOwner(ctx context.Context, id string) (string, error) {
	owner := ""
	err := s.store.Replay(ctx, 1, func(e events.Event) error {
		if t, ok := e.Data.(*events.TokenIssued); ok && t.TokenID == id {
			owner = e.Subject
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	if owner == "" {
		return "", domain.ErrTokenMissing
	}
	return owner, nil
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// client sends requests to a handler and keeps cookies like a browser.
type client struct {
	t       *testing.T
	h       http.Handler
	cookies map[string]*http.Cookie
	header  http.Header // sent with every request
	peer    string
}

var peerCounter atomic.Int32

func (e *env) client() *client {
	return &client{t: e.t, h: e.srv.Handler(), cookies: map[string]*http.Cookie{}, header: http.Header{},
		peer: "192.0.2." + strconv.Itoa(int(peerCounter.Add(1))%250+1) + ":40000"}
}

// do sends a request and returns the response with its body read.
func (c *client) do(method, target string, body io.Reader, header http.Header) (*http.Response, string) {
	c.t.Helper()
	var sent []byte
	if body != nil {
		var err error
		if sent, err = io.ReadAll(body); err != nil {
			c.t.Fatal(err)
		}
	}
	r := httptest.NewRequest(method, target, bytes.NewReader(sent))
	r.RemoteAddr = c.peer
	for k, vs := range c.header {
		r.Header[k] = vs
	}
	for k, vs := range header {
		r.Header[k] = vs
	}
	for _, ck := range c.cookies {
		r.AddCookie(&http.Cookie{Name: ck.Name, Value: ck.Value})
	}
	rec := httptest.NewRecorder()
	c.h.ServeHTTP(rec, r)
	res := rec.Result()
	for _, ck := range res.Cookies() {
		if ck.MaxAge < 0 {
			delete(c.cookies, ck.Name)
		} else {
			c.cookies[ck.Name] = ck
		}
	}
	b, _ := io.ReadAll(res.Body)
	checkOpenAPI(c.t, method, target, r.Header, sent, res, b)
	return res, string(b)
}

// postForm posts url-encoded values.
func (c *client) postForm(target string, v url.Values) (*http.Response, string) {
	return c.do(http.MethodPost, target, strings.NewReader(v.Encode()),
		http.Header{"Content-Type": {"application/x-www-form-urlencoded"}})
}

// postJSON posts v (a string is sent as it is).
func (c *client) postJSON(target string, v any, header http.Header) (*http.Response, string) {
	c.t.Helper()
	var body []byte
	if s, ok := v.(string); ok {
		body = []byte(s)
	} else {
		var err error
		if body, err = json.Marshal(v); err != nil {
			c.t.Fatal(err)
		}
	}
	h := http.Header{"Content-Type": {"application/json"}}
	for k, vs := range header {
		h[k] = vs
	}
	return c.do(http.MethodPost, target, bytes.NewReader(body), h)
}

// login signs in and fails the test unless it worked.
func (c *client) login(user string) {
	c.t.Helper()
	res, body := c.postForm("/login", url.Values{"username": {user}, "password": {testPassword}})
	if res.StatusCode != http.StatusSeeOther || c.cookies[auth.CookieName] == nil {
		c.t.Fatalf("login %s: status %d, body %.300s", user, res.StatusCode, body)
	}
}

// signedIn reports whether the client's session counts, asking an API read
// that needs a user (404 for a missing proposal when signed in, 401 not).
func (c *client) signedIn() bool {
	c.t.Helper()
	res, body := c.do(http.MethodGet, "/api/v1/proposals/nope", nil, nil)
	switch res.StatusCode {
	case http.StatusNotFound:
		return true
	case http.StatusUnauthorized:
		return false
	}
	c.t.Fatalf("probe: status %d, body %.300s", res.StatusCode, body)
	return false
}

// decodeProblem reads a problem+json body.
func decodeProblem(t *testing.T, res *http.Response, body string) httpx.Problem {
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

// openProposal opens a proposal for a new entry as user via the API and
// returns its id.
func (e *env) openProposal(c *client, entry string) string {
	e.t.Helper()
	res, body := c.postJSON("/api/v1/proposals", map[string]any{
		"ranking": testRanking, "entry": entry, "title": "Add " + entry,
		"new_entry": map[string]any{"name": map[string]string{"zh": entry, "en": entry}, "category": "cloud"},
	}, nil)
	if res.StatusCode != http.StatusCreated {
		e.t.Fatalf("open proposal: status %d, body %s", res.StatusCode, body)
	}
	var cr command.Response
	if err := json.Unmarshal([]byte(body), &cr); err != nil {
		e.t.Fatal(err)
	}
	return cr.ID
}
