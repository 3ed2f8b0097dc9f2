package mail

import (
	"context"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/events/jetstream/jstest"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/notify"
)

// env is the demo ranking over a real embedded JetStream and real read
// models, a real SMTP server on loopback and a mail Worker running.
type env struct {
	t     *testing.T
	ctx   context.Context
	js    *jstest.Env
	cmd   *handler.Handler
	read  *projections.Store
	relay *relayServer
	svc   *Service
}

const publicURL = "https://rank.example"

// start runs the env; refuse is how many mails the SMTP server refuses
// first; now is the mailer's clock (nil: time.Now).
func start(t *testing.T, refuse int, now func() time.Time) *env {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	js := jstest.Start(t)
	read, err := projections.Open(filepath.Join(t.TempDir(), "read.db"))
	if err != nil {
		t.Fatal(err)
	}
	runCtx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { _ = read.Run(runCtx, js.Store, nil) })
	e := &env{t: t, ctx: ctx, js: js, cmd: handler.New(js.Store, nil), read: read, relay: startRelay(t, refuse)}
	if _, err := demo.Seed(ctx, e.cmd, demo.Options{Password: "unused", Now: time.Now(), AuditHead: read.AuditHead,
		CrossValidated: read.CrossValidated,
		HashPassword:   func(string) (string, error) { return "$argon2id$v=19$m=8,t=1,p=1$c2FsdA$aGFzaA", nil }}); err != nil {
		t.Fatalf("seed: %v", err)
	}
	nc, err := js.Server.Connect("mail")
	if err != nil {
		t.Fatal(err)
	}
	book, err := OpenBook(ctx, nc, 1)
	if err != nil {
		t.Fatal(err)
	}
	relay, err := ParseRelay("smtp://crossrank:s3cret@"+e.relay.Addr, "Crossrank <desk@rank.example>")
	if err != nil {
		t.Fatal(err)
	}
	relay.TLS = e.relay.TLS
	e.svc = &Service{Book: book, Relay: relay, Compose: Composer{PublicURL: publicURL}, LastSequence: js.Store.LastSequence, Users: e.cmd, Now: now}
	w, err := NewWorker(nc, Config{Service: e.svc, Inbox: read, RetryBase: 50 * time.Millisecond, RetryMax: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	wg.Go(func() { _ = w.Run(runCtx) })
	t.Cleanup(func() { stop(); wg.Wait(); nc.Close(); read.Close() })
	return e
}

func (e *env) actor(name string) domain.Actor {
	e.t.Helper()
	u, err := e.cmd.User(e.ctx, name)
	if err != nil || !u.Exists() {
		e.t.Fatalf("user %s: %v", name, err)
	}
	return u.Actor()
}

var confirmLink = regexp.MustCompile(`https://rank\.example/mail/confirm\?token=([A-Za-z0-9_-]+)&user=([a-z0-9_-]+)`)

// confirm gives user the address through the confirmation link, as they
// would: the link mailed to it, opened.
func (e *env) confirm(user, address, lang string) {
	e.t.Helper()
	if err := e.svc.RequestAddress(e.ctx, user, address, lang); err != nil {
		e.t.Fatal(err)
	}
	m := e.relay.await(e.t, address, "")
	text, _ := parts(e.t, m)
	got := confirmLink.FindStringSubmatch(text)
	if got == nil || got[2] != user {
		e.t.Fatalf("no confirmation link for %s in:\n%s", user, text)
	}
	if err := e.svc.ConfirmAddress(e.ctx, user, got[1]); err != nil {
		e.t.Fatal(err)
	}
}

// openProposals opens n draft proposals on demo entries, as the editor.
func (e *env) openProposals(_ string, n int) []string {
	e.t.Helper()
	ed, err := e.cmd.Edition(e.ctx, demo.RankingSlug)
	if err != nil {
		e.t.Fatal(err)
	}
	var entries []string
	for slug := range ed.Entries {
		entries = append(entries, slug)
	}
	slices.Sort(entries)
	var ids []string
	for i := range n {
		id := events.NewID(time.Now())
		if _, err := e.cmd.OpenProposal(e.ctx, e.actor("editor"), domain.OpenProposal{CommandID: id, ID: id,
			Ranking: demo.RankingSlug, Entry: entries[i], Title: "Mail test " + entries[i]}); err != nil {
			e.t.Fatal(err)
		}
		ids = append(ids, id)
	}
	return ids
}

// request asks reviewers to review proposal, as the demo editor.
func (e *env) request(proposal string, reviewers ...string) {
	e.t.Helper()
	if _, err := e.cmd.RequestReviewers(e.ctx, e.actor("editor"), domain.RequestReviewers{
		CommandID: events.NewID(time.Now()), Proposal: proposal, Reviewers: reviewers}); err != nil {
		e.t.Fatalf("request %v on %s: %v", reviewers, proposal, err)
	}
}

func contains(t *testing.T, what, s string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(s, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, s)
		}
	}
}

// sentDeliveries waits until user's latest mails are all sent (the state
// is written just after the relay took the mail) and returns them.
func (e *env) sentDeliveries(user string, n int) []notify.Delivery {
	e.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		a, err := e.svc.Account(e.ctx, user)
		if err != nil {
			e.t.Fatal(err)
		}
		sent := 0
		for _, d := range a.Deliveries {
			if d.State == notify.StateSent {
				sent++
			}
		}
		if sent == n && len(a.Deliveries) == n {
			return a.Deliveries
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("%s's deliveries: %+v, want %d sent", user, a.Deliveries, n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
