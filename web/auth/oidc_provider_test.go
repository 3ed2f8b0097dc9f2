package auth_test

import (
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

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
