package web

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events/jetstream"
	"github.com/crossrank/crossrank/events/jetstream/jstest"
	"github.com/crossrank/crossrank/projections"
)

// fakeHash stands in for argon2id: the demo seed only needs a PHC
// string, and the public site has no sign-in.
func fakeHash(string) (string, error) { return "$argon2id$v=19$m=8,t=1,p=1$c2FsdA$aGFzaA", nil }

// siteEnv is the demo ranking on a real embedded JetStream store with real
// SQLite read models kept current by the projection runner, and a server
// over them.
type siteEnv struct {
	t     *testing.T
	ctx   context.Context
	store *jetstream.Store
	cmd   *handler.Handler
	read  *projections.Store
	srv   *Server
}

// newSiteEnvWith is newSiteEnv with the server's configuration changed by
// change (nil: none).
func newSiteEnvWith(t *testing.T, change func(*Config)) *siteEnv {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
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
	e := &siteEnv{t: t, ctx: ctx, store: store, cmd: handler.New(store, nil), read: read}
	followed := make(chan struct{})
	go func() { defer close(followed); _ = e.cmd.Follow(runCtx, store) }()
	t.Cleanup(func() { stop(); <-followed })
	if _, err := demo.Seed(ctx, e.cmd, demo.Options{Password: "pw", HashPassword: fakeHash, Now: time.Now(),
		AuditHead: read.AuditHead, CrossValidated: read.CrossValidated}); err != nil {
		t.Fatalf("seed: %v", err)
	}
	e.caughtUp()
	cfg := Config{Commands: e.cmd, Read: read, Logger: slog.New(slog.DiscardHandler),
		SessionKeys: [][]byte{bytes.Repeat([]byte("k"), 32)}}
	if change != nil {
		change(&cfg)
	}
	e.srv, err = New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// caughtUp waits until the read models have applied the whole stream.
func (e *siteEnv) caughtUp() {
	e.t.Helper()
	last, err := e.store.LastSequence(e.ctx)
	if err != nil {
		e.t.Fatal(err)
	}
	if err := e.read.WaitFor(e.ctx, last); err != nil {
		e.t.Fatal(err)
	}
}

// get requests target from the handler; header pairs are name, value.
func (e *siteEnv) get(target string, header ...string) (*http.Response, string) {
	e.t.Helper()
	r := httptest.NewRequest(http.MethodGet, target, nil)
	for i := 0; i+1 < len(header); i += 2 {
		r.Header.Set(header[i], header[i+1])
	}
	w := httptest.NewRecorder()
	e.srv.Handler().ServeHTTP(w, r)
	res := w.Result()
	b, _ := io.ReadAll(res.Body)
	checkOpenAPI(e.t, http.MethodGet, target, r.Header, nil, res, b)
	return res, string(b)
}

// page gets an HTML page, fails unless it is 200, and parses it.
func (e *siteEnv) page(target string, header ...string) *goquery.Document {
	e.t.Helper()
	res, body := e.get(target, header...)
	if res.StatusCode != http.StatusOK {
		e.t.Fatalf("GET %s: %d %.400s", target, res.StatusCode, body)
	}
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(body))
	if err != nil {
		e.t.Fatal(err)
	}
	return doc
}

// testids returns the attribute attr of every element with data-testid id.
func testids(doc *goquery.Document, id, attr string) []string {
	var out []string
	doc.Find(`[data-testid="` + id + `"]`).Each(func(_ int, s *goquery.Selection) {
		v, _ := s.Attr(attr)
		out = append(out, v)
	})
	return out
}
