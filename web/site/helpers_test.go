package site

import (
	"context"
	"crypto/ed25519"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain/bundle"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events/jetstream/jstest"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/i18n"
)

// env is the demo ranking on a real embedded JetStream store with real
// SQLite read models kept current by the projection runner, and the site
// over them, its routes served with the request state web's middleware
// would give a reader who is not signed in. Tests of the whole server (its
// headers, sign-in, the live push through it) are in package web.
type env struct {
	t       *testing.T
	site    *Site
	handler http.Handler
}

// newEnv seeds the demo and returns a site whose page cache keeps at most
// cacheBytes.
func newEnv(t *testing.T, cacheBytes int) *env {
	t.Helper()
	return newEnvSigning(t, cacheBytes, nil)
}

// newEnvSigning is newEnv with the editions' bundles signed by key (nil:
// none, as in newEnv).
func newEnvSigning(t *testing.T, cacheBytes int, key ed25519.PrivateKey) *env {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	store := jstest.Start(t).Store
	read, err := projections.Open(filepath.Join(t.TempDir(), "read.db"))
	if err != nil {
		t.Fatal(err)
	}
	runCtx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = read.Run(runCtx, store, nil) }()
	t.Cleanup(func() { stop(); <-done; read.Close() })
	cmd := handler.New(store, nil)
	fakeHash := func(string) (string, error) { return "$argon2id$v=19$m=8,t=1,p=1$c2FsdA$aGFzaA", nil }
	if _, err := demo.Seed(ctx, cmd, demo.Options{Password: "pw", HashPassword: fakeHash, Now: time.Now(),
		AuditHead: read.AuditHead, CrossValidated: read.CrossValidated}); err != nil {
		t.Fatalf("seed: %v", err)
	}
	last, err := store.LastSequence(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := read.WaitFor(ctx, last); err != nil {
		t.Fatal(err)
	}
	cfg := Config{Read: read, Log: slog.New(slog.DiscardHandler), PageCacheBytes: cacheBytes}
	if key != nil {
		cfg.Bundles = bundle.NewProducer(store, key)
	}
	s := New(cfg)
	mux := http.NewServeMux()
	s.Routes(mux, func(h http.Handler) http.Handler { return h })
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rq := &httpx.Request{Lang: i18n.Choose(w, r, false), Nonce: "test-nonce", Clock: time.Now, Now: time.Now()}
		mux.ServeHTTP(w, r.WithContext(httpx.NewContext(r.Context(), rq)))
	})
	return &env{t: t, site: s, handler: h}
}

// get requests target from the site; header pairs are name, value.
func (e *env) get(target string, header ...string) (*http.Response, string) {
	e.t.Helper()
	r := httptest.NewRequest(http.MethodGet, target, nil)
	for i := 0; i+1 < len(header); i += 2 {
		r.Header.Set(header[i], header[i+1])
	}
	w := httptest.NewRecorder()
	e.handler.ServeHTTP(w, r)
	res := w.Result()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}
