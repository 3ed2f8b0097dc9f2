package web

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events/jetstream"
	"github.com/crossrank/crossrank/events/jetstream/jstest"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/auth"
	"github.com/crossrank/crossrank/web/paths"
	jose "github.com/go-jose/go-jose/v4"
	"github.com/zitadel/oidc/v3/example/server/exampleop"
	"github.com/zitadel/oidc/v3/example/server/storage"
)

// The OpenID Provider of these tests is real: zitadel/oidc's op package
// with its example storage and login page (exampleop), serving discovery,
// JWKS, authorize, its own login form and the token endpoint on loopback.
// Its users: "test-user@127.0.0.1" (subject id1) and "test-user2"
// (subject id2), both with the password opPassword.
const (
	opPassword   = "verysecure"
	opUser       = "test-user@127.0.0.1"
	opOtherUser  = "test-user2"
	oidcClientID = "crossrank-desk"
	oidcSecret   = "desk-secret"
	// testHost is the Host of the test client's requests (httptest's), so
	// the callback the provider sends the browser to is on it.
	testHost = "example.com"
)

// tamper rewrites the ID token the provider's real token endpoint issued:
// it changes claims and signs the result with key (kid), as a provider
// gone wrong or an attacker would. For the cases the provider will not
// produce itself: another audience, an expired token, a foreign key.
type tamper struct {
	claims func(map[string]any)
	key    *rsa.PrivateKey // nil: the provider's own signing key
	kid    string
}

// testOP is the provider on loopback.
type testOP struct {
	t       *testing.T
	srv     *httptest.Server
	issuer  string
	store   *storage.Storage
	tamper  atomic.Pointer[tamper]
	extraMu sync.Mutex
	extra   []jose.JSONWebKey // keys the JWKS serves besides the provider's (a rotation)
}

func startOP(t *testing.T, redirectURI string) *testOP {
	t.Helper()
	op := &testOP{t: t}
	var h atomic.Pointer[http.Handler]
	op.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { (*h.Load()).ServeHTTP(w, r) }))
	t.Cleanup(op.srv.Close)
	op.issuer = op.srv.URL
	op.store = storage.NewStorageWithClients(storage.NewUserStore(op.issuer),
		map[string]*storage.Client{oidcClientID: storage.WebClient(oidcClientID, oidcSecret, redirectURI)})
	real := exampleop.SetupServer(op.issuer, op.store, nil, false)
	var wrapped http.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/oauth/token" && op.tamper.Load() != nil:
			op.forge(w, r, real)
		case r.URL.Path == "/keys":
			op.keys(w, r, real)
		default:
			real.ServeHTTP(w, r)
		}
	})
	h.Store(&wrapped)
	return op
}

// forge passes the token request to the real endpoint and rewrites the ID
// token of its answer (see tamper).
func (op *testOP) forge(w http.ResponseWriter, r *http.Request, real http.Handler) {
	rec := httptest.NewRecorder()
	real.ServeHTTP(rec, r)
	var body map[string]any
	if rec.Code != http.StatusOK || json.Unmarshal(rec.Body.Bytes(), &body) != nil {
		w.WriteHeader(rec.Code)
		_, _ = w.Write(rec.Body.Bytes())
		return
	}
	tp := op.tamper.Load()
	raw, _ := body["id_token"].(string)
	parts := strings.Split(raw, ".")
	payload, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		op.t.Errorf("the provider's ID token: %v", err)
		return
	}
	var claims map[string]any
	if err := json.Unmarshal(payload, &claims); err != nil {
		op.t.Errorf("the provider's ID token: %v", err)
		return
	}
	tp.claims(claims)
	key, kid := tp.key, tp.kid
	if key == nil {
		sk, err := op.store.SigningKey(r.Context())
		if err != nil {
			op.t.Errorf("signing key: %v", err)
			return
		}
		key, kid = sk.Key().(*rsa.PrivateKey), sk.ID()
	}
	body["id_token"] = signJWT(op.t, claims, key, kid)
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(body)
}

// keys serves the provider's JWKS, plus the extra keys of a rotation.
func (op *testOP) keys(w http.ResponseWriter, r *http.Request, real http.Handler) {
	rec := httptest.NewRecorder()
	real.ServeHTTP(rec, r)
	var set jose.JSONWebKeySet
	if err := json.Unmarshal(rec.Body.Bytes(), &set); err != nil {
		op.t.Errorf("JWKS: %v", err)
		return
	}
	op.extraMu.Lock()
	set.Keys = append(set.Keys, op.extra...)
	op.extraMu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(set)
}

// rotate adds a new signing key to the JWKS and returns it with its id.
func (op *testOP) rotate() (*rsa.PrivateKey, string) {
	key := newRSAKey(op.t)
	op.extraMu.Lock()
	defer op.extraMu.Unlock()
	kid := "rotated-" + string(rune('a'+len(op.extra)))
	op.extra = append(op.extra, jose.JSONWebKey{Key: &key.PublicKey, KeyID: kid, Algorithm: string(jose.RS256), Use: "sig"})
	return key, kid
}

func newRSAKey(t *testing.T) *rsa.PrivateKey {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	return key
}

func signJWT(t *testing.T, claims map[string]any, key *rsa.PrivateKey, kid string) string {
	t.Helper()
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.RS256, Key: jose.JSONWebKey{Key: key, KeyID: kid}},
		(&jose.SignerOptions{}).WithType("JWT"))
	if err != nil {
		t.Fatal(err)
	}
	payload, err := json.Marshal(claims)
	if err != nil {
		t.Fatal(err)
	}
	jws, err := signer.Sign(payload)
	if err != nil {
		t.Fatal(err)
	}
	s, err := jws.CompactSerialize()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// oidcEnv is the desk with sign-in through testOP: a real embedded
// JetStream store, real SQLite read models kept current, admin ada
// (password) to invite people.
type oidcEnv struct {
	t     *testing.T
	ctx   context.Context
	store *jetstream.Store
	cmd   *handler.Handler
	read  *projections.Store
	srv   *Server
	op    *testOP
	logs  *syncBuffer // the server's log: why a sign-in was refused
}

func newOIDCEnv(t *testing.T, tweak ...func(*Config)) *oidcEnv {
	t.Helper()
	return newOIDCEnvAt(t, "http://"+testHost, tweak...)
}

// newOIDCEnvAt is newOIDCEnv for a desk served at base (the provider
// accepts the callback there).
func newOIDCEnvAt(t *testing.T, base string, tweak ...func(*Config)) *oidcEnv {
	t.Helper()
	ctx := testContext(t)
	store := jstest.Start(t).Store
	read, err := projections.Open(filepath.Join(t.TempDir(), "read.db"))
	if err != nil {
		t.Fatal(err)
	}
	runCtx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { _ = read.Run(runCtx, store, nil) })
	t.Cleanup(func() { stop(); wg.Wait(); read.Close() })
	e := &oidcEnv{t: t, ctx: ctx, store: store, cmd: handler.New(store, nil), read: read, logs: &syncBuffer{}}
	if _, err := e.cmd.RegisterUser(ctx, domain.System(), domain.RegisterUser{
		Username: "ada", DisplayName: "Ada", PasswordHash: testHash(), Roles: []string{domain.RoleAdmin}}); err != nil {
		t.Fatal(err)
	}
	e.op = startOP(t, base+paths.LoginOIDCCallback)
	cfg := Config{Commands: e.cmd, Read: read, Logger: slog.New(slog.NewTextHandler(e.logs, nil)),
		SessionKeys: [][]byte{bytes.Repeat([]byte("k"), 32)},
		OIDC:        &auth.OIDCConfig{Issuer: e.op.issuer, ClientID: oidcClientID, ClientSecret: oidcSecret, Name: "Newsroom ID"}}
	for _, f := range tweak {
		f(&cfg)
	}
	if e.srv, err = New(cfg); err != nil {
		t.Fatal(err)
	}
	return e
}

// browser is a signed-out client of the desk.
func (e *oidcEnv) browser() *client {
	return &client{t: e.t, h: e.srv.Handler(), cookies: map[string]*http.Cookie{}, header: http.Header{},
		peer: "203.0.113.9:40000"}
}

// caughtUp waits until the read models hold every stored event.
func (e *oidcEnv) caughtUp() {
	e.t.Helper()
	seq, err := e.store.LastSequence(e.ctx)
	if err != nil {
		e.t.Fatal(err)
	}
	if err := e.read.WaitFor(e.ctx, seq); err != nil {
		e.t.Fatal(err)
	}
}

func (e *oidcEnv) lastSeq() uint64 {
	e.t.Helper()
	seq, err := e.store.LastSequence(e.ctx)
	if err != nil {
		e.t.Fatal(err)
	}
	return seq
}

// invite has ada invite user with roles on the desk and returns the link.
func (e *oidcEnv) invite(user string, roles ...string) string {
	e.t.Helper()
	ada := e.browser()
	ada.login("ada")
	link := invite(e.t, ada, user, roles...)
	e.caughtUp()
	return link
}

// atProvider starts a sign-in on the desk at start (a GET on our handler),
// signs in on the provider's own login page as opUsername, and returns the
// callback the provider sends the browser back to (path and query on the
// desk), without following it.
func (e *oidcEnv) atProvider(c *client, start, opUsername string) string {
	e.t.Helper()
	res, body := c.do(http.MethodGet, start, nil, nil)
	if res.StatusCode != http.StatusSeeOther || !strings.HasPrefix(res.Header.Get("Location"), e.op.issuer) {
		e.t.Fatalf("GET %s: status %d, Location %q, body %.300s", start, res.StatusCode, res.Header.Get("Location"), body)
	}
	jar, _ := cookiejar.New(nil)
	opc := &http.Client{Jar: jar, CheckRedirect: func(req *http.Request, _ []*http.Request) error {
		if req.URL.Host == testHost {
			return http.ErrUseLastResponse // back to the desk: the test's own client takes it
		}
		return nil
	}}
	page, err := opc.Get(res.Header.Get("Location"))
	if err != nil {
		e.t.Fatal(err)
	}
	doc, err := goquery.NewDocumentFromReader(page.Body)
	page.Body.Close()
	if err != nil {
		e.t.Fatal(err)
	}
	id, ok := doc.Find(`form input[name="id"]`).Attr("value")
	if !ok || id == "" {
		e.t.Fatalf("the provider's login page has no form: status %d", page.StatusCode)
	}
	back, err := opc.PostForm(e.op.issuer+"/login/username", url.Values{"id": {id}, "username": {opUsername}, "password": {opPassword}})
	if err != nil {
		e.t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, back.Body)
	back.Body.Close()
	loc, err := url.Parse(back.Header.Get("Location"))
	if err != nil || loc.Host != testHost || loc.Path != paths.LoginOIDCCallback {
		e.t.Fatalf("the provider did not send the browser back: status %d, Location %q", back.StatusCode, back.Header.Get("Location"))
	}
	return loc.RequestURI()
}

// signIn runs a whole sign-in through the provider and returns the
// callback's answer.
func (e *oidcEnv) signIn(c *client, start, opUsername string) (*http.Response, string) {
	e.t.Helper()
	return c.do(http.MethodGet, e.atProvider(c, start, opUsername), nil, nil)
}

// refused checks that a callback answered status with the refusal page of
// reason, and left the browser signed out.
func refused(t *testing.T, c *client, res *http.Response, body string, status int, reason string) {
	t.Helper()
	if res.StatusCode != status {
		t.Fatalf("status %d, want %d; body %.400s", res.StatusCode, status, body)
	}
	doc := adminDoc(t, body)
	if got, _ := byTestID(doc, "oidc-refused").Attr("data-reason"); got != reason {
		t.Errorf("refusal reason %q, want %q", got, reason)
	}
	if c.cookies[auth.CookieName] != nil {
		t.Errorf("a refused sign-in set a session cookie")
	}
	if c.signedIn() {
		t.Errorf("a refused sign-in left the browser signed in")
	}
}

// logged reports whether the server's log has a line since mark (a length
// of the log) that contains every one of words.
func (e *oidcEnv) logged(mark int, words ...string) bool {
	for _, line := range strings.Split(e.logs.String()[mark:], "\n") {
		if all(line, words) {
			return true
		}
	}
	return false
}

func all(s string, words []string) bool {
	for _, w := range words {
		if !strings.Contains(s, w) {
			return false
		}
	}
	return true
}

// welcomeOIDC is the invitation's link started through the provider.
func welcomeOIDC(t *testing.T, link string) string {
	t.Helper()
	u, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	return paths.LoginOIDC + "?" + u.RawQuery
}
