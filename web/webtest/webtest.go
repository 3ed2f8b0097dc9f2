// Package webtest is the test harness of the served web server: a server
// (web.New, as serve builds it) over a real embedded NATS JetStream store,
// seeded with a ranking and the test users, and a client that keeps
// cookies like a browser, signs in, posts forms and JSON, and holds every
// /api/v1 exchange to the OpenAPI document (openapicheck).
//
// Tests of the desk, the API, the site and auth use it from their own
// packages (package desk_test and so on), so go test runs them in parallel
// across packages. Package web's own tests keep their helpers
// (helpers_test.go): they cannot import this package, which imports web.
package webtest

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/events/jetstream"
	"github.com/crossrank/crossrank/events/jetstream/jstest"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web"
	"github.com/crossrank/crossrank/web/auth"
)

// Timeout bounds what a test waits for the store and the server.
const Timeout = 10 * time.Minute

// Users is the test desk: who holds which role. eve is editor and
// reviewer, to show that a role never lets the author approve their own
// proposal.
var Users = map[string][]string{
	"alice": {domain.RoleEditor},
	"bob":   {domain.RoleReviewer},
	"carol": {domain.RoleReviewer},
	"pat":   {domain.RolePublisher},
	"eve":   {domain.RoleEditor, domain.RoleReviewer},
}

// Password is every test user's password.
const Password = "correct horse battery staple"

// PasswordHash is Password's argon2id hash at the smallest parameters:
// every sign-in checks it, hundreds of times across the tests, and at
// production's parameters each check costs tens of milliseconds of CPU on
// purpose. web/auth's own tests hash at production's parameters.
var PasswordHash = sync.OnceValue(func() string {
	h, err := auth.Argon2id{Memory: 8, Time: 1, Threads: 1}.Hash(Password)
	if err != nil {
		panic(err)
	}
	return h
})

// Ranking is the slug of the seeded ranking.
const Ranking = "gpu"

// SessionKey signs the session cookie of every Env (and of a replica
// built beside one).
var SessionKey = bytes.Repeat([]byte("k"), 32)

// Env is a server over a real embedded NATS JetStream store, seeded with
// Ranking and Users.
type Env struct {
	T      *testing.T
	JS     *jstest.Env
	Store  *jetstream.Store
	Cmd    *handler.Handler
	Srv    *web.Server
	Waiter *RecordingWaiter
	Logs   *SyncBuffer // the server's log, at debug level
}

// Context is a context the test's cleanup cancels, bounded by Timeout.
func Context(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	t.Cleanup(cancel)
	return ctx
}

// New starts a store and a server; tweak adjusts the Config.
func New(t *testing.T, tweak ...func(*web.Config)) *Env {
	t.Helper()
	js := jstest.Start(t)
	store := js.Store
	e := &Env{T: t, JS: js, Store: store, Cmd: handler.New(store, nil), Waiter: &RecordingWaiter{}, Logs: &SyncBuffer{}}
	// As in serve: commands read rankings and editions kept current by
	// the stream.
	followCtx, stopFollow := context.WithCancel(context.Background())
	followed := make(chan struct{})
	go func() { defer close(followed); _ = e.Cmd.Follow(followCtx, store) }()
	t.Cleanup(func() { stopFollow(); <-followed })
	e.seed()
	cfg := web.Config{
		Commands:    e.Cmd,
		Waiter:      e.Waiter,
		Tokens:      StoreTokens{store},
		Logger:      slog.New(slog.NewTextHandler(e.Logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
		SessionKeys: [][]byte{SessionKey},
	}
	for _, f := range tweak {
		f(&cfg)
	}
	var err error
	if e.Srv, err = web.New(cfg); err != nil {
		t.Fatalf("New: %v", err)
	}
	return e
}

func (e *Env) seed() {
	ctx := Context(e.T)
	sys := domain.System()
	def := events.RankingDefined{
		Slug:       Ranking,
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
	jstest.DefineRanking(e.T, e.Store, def, nil)
	for name, roles := range Users {
		if _, err := e.Cmd.RegisterUser(ctx, sys, domain.RegisterUser{
			Username: name, DisplayName: strings.ToUpper(name[:1]) + name[1:], PasswordHash: PasswordHash(), Roles: roles,
		}); err != nil {
			e.T.Fatalf("RegisterUser %s: %v", name, err)
		}
	}
}

// LastSeq is the store's last sequence: comparing it before and after a
// refused request shows nothing was appended.
func (e *Env) LastSeq() uint64 {
	e.T.Helper()
	seq, err := e.Store.LastSequence(Context(e.T))
	if err != nil {
		e.T.Fatalf("LastSequence: %v", err)
	}
	return seq
}

// RecordingWaiter stands in for the read models: it records the sequences
// a handler waited for.
type RecordingWaiter struct {
	mu   sync.Mutex
	seqs []uint64
}

// WaitFor records seq and returns at once.
func (w *RecordingWaiter) WaitFor(_ context.Context, seq uint64) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.seqs = append(w.seqs, seq)
	return nil
}

// Waited returns the sequences waited for, in order.
func (w *RecordingWaiter) Waited() []uint64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]uint64(nil), w.seqs...)
}

// StoreTokens finds a token's owner by reading the log, as the users read
// model will: slow, but real.
type StoreTokens struct{ Store events.Store }

// TokenOwner returns the user who was issued token id.
func (s StoreTokens) TokenOwner(ctx context.Context, id string) (string, error) {
	owner := ""
	err := s.Store.Replay(ctx, 1, func(e events.Event) error {
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

// SyncBuffer is a buffer safe to write from the server's goroutines while
// the test reads it.
type SyncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *SyncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *SyncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// WaitApplied waits until the read models hold the stream up to seq,
// however long that takes within ctx: WaitFor gives up after the few
// seconds a request waits, and a test that has just written thousands of
// entries, beside others on a busy machine, may need longer.
func WaitApplied(t testing.TB, ctx context.Context, read *projections.Store, seq uint64) {
	t.Helper()
	for {
		err := read.WaitFor(ctx, seq)
		if err == nil {
			return
		}
		if !errors.Is(err, projections.ErrWaitTimeout) || ctx.Err() != nil {
			t.Fatal(err)
		}
	}
}
