package web

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events/jetstream"
	"github.com/crossrank/crossrank/events/jetstream/jstest"
	"github.com/crossrank/crossrank/projections"
)

// The demo seed's proposals, one in each desk queue.
const (
	demoRanking   = demo.RankingSlug
	demoDraft     = "demo-matpool-2"      // the editor's draft
	demoInReview  = "demo-huawei-cloud-2" // in review, approved by reviewer1
	demoValidated = "demo-qingjiao-2"     // cross-validated, not published
)

// extraUsers are signed-in users beyond the demo's four (editor, reviewer1,
// reviewer2, publisher): eve holds editor and reviewer, max editor and
// publisher, to show that no role lets an author judge their own proposal.
var extraUsers = map[string][]string{
	"eve": {domain.RoleEditor, domain.RoleReviewer},
	"max": {domain.RoleEditor, domain.RolePublisher},
}

// demoEnv is the whole desk: a real embedded JetStream store, real SQLite
// read models kept current by the projection runner, the demo ranking
// seeded through the real commands, and a server over them. Every demo
// user signs in with testPassword.
type demoEnv struct {
	t     *testing.T
	js    *jstest.Env
	ctx   context.Context
	store *jetstream.Store
	cmd   *handler.Handler
	read  *projections.Store
	srv   *Server
	logs  *syncBuffer
}

func newDemoEnv(t *testing.T) *demoEnv {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	t.Cleanup(cancel)
	js := jstest.Start(t)
	store := js.Store
	read, err := projections.Open(filepath.Join(t.TempDir(), "read.db"))
	if err != nil {
		t.Fatal(err)
	}
	runCtx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = read.Run(runCtx, store, nil) }()
	t.Cleanup(func() { stop(); <-done; read.Close() })
	e := &demoEnv{t: t, js: js, ctx: ctx, store: store, cmd: handler.New(store, nil), read: read, logs: &syncBuffer{}}
	// One real argon2id hash (testHash) for every user: sign-in is real.
	hash := func(string) (string, error) { return testHash(), nil }
	if _, err := demo.Seed(ctx, e.cmd, demo.Options{Password: testPassword, HashPassword: hash, Now: time.Now(),
		AuditHead: read.AuditHead, CrossValidated: read.CrossValidated}); err != nil {
		t.Fatalf("seed: %v", err)
	}
	for name, roles := range extraUsers {
		if _, err := e.cmd.RegisterUser(ctx, domain.System(), domain.RegisterUser{
			Username: name, DisplayName: name, PasswordHash: testHash(), Roles: roles}); err != nil {
			t.Fatalf("register %s: %v", name, err)
		}
	}
	e.caughtUp()
	e.srv, err = New(Config{Commands: e.cmd, Read: read,
		Logger:      slog.New(slog.NewTextHandler(e.logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
		SessionKeys: [][]byte{bytes.Repeat([]byte("k"), 32)}})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// caughtUp waits until the read models have applied the whole stream.
func (e *demoEnv) caughtUp() {
	e.t.Helper()
	if err := e.read.WaitFor(e.ctx, e.lastSeq()); err != nil {
		e.t.Fatal(err)
	}
}

// lastSeq is the store's last sequence: the same before and after a refused
// request shows that nothing was appended.
func (e *demoEnv) lastSeq() uint64 {
	e.t.Helper()
	seq, err := e.store.LastSequence(e.ctx)
	if err != nil {
		e.t.Fatal(err)
	}
	return seq
}

// client returns a browser-like client of the desk, signed in as user
// ("" for signed out).
func (e *demoEnv) client(user string) *client {
	e.t.Helper()
	c := &client{t: e.t, h: e.srv.Handler(), cookies: map[string]*http.Cookie{}, header: http.Header{},
		peer: "198.51.100." + strconv.Itoa(int(peerCounter.Add(1))%250+1) + ":40000"}
	if user != "" {
		c.login(user)
	}
	return c
}
