package scheduler

import (
	"context"
	"errors"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events"
	crjs "github.com/crossrank/crossrank/events/jetstream"
	"github.com/crossrank/crossrank/events/jetstream/jstest"
	"github.com/crossrank/crossrank/projections"
	"github.com/nats-io/nats.go/jetstream"
)

// env is the demo ranking over a real embedded JetStream and real read
// models, with a Scheduler running.
type env struct {
	t    *testing.T
	ctx  context.Context
	js   *jstest.Env
	cmd  *handler.Handler
	read *projections.Store
}

func start(t *testing.T) *env {
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
	e := &env{t: t, ctx: ctx, js: js, cmd: handler.New(js.Store, nil), read: read}
	if _, err := demo.Seed(ctx, e.cmd, demo.Options{Password: "unused", Now: time.Now(), AuditHead: read.AuditHead,
		CrossValidated: read.CrossValidated,
		HashPassword:   func(string) (string, error) { return "$argon2id$v=19$m=8,t=1,p=1$c2FsdA$aGFzaA", nil }}); err != nil {
		t.Fatalf("seed: %v", err)
	}
	nc, err := js.Server.Connect("scheduler")
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(nc, Config{Commands: e.cmd, Reads: read})
	if err != nil {
		t.Fatal(err)
	}
	wg.Go(func() { _ = s.Run(runCtx) })
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

// schedule schedules the demo's cross-validated proposals at at, as the
// demo publisher, and returns the schedule id and the proposals.
func (e *env) schedule(at time.Time) (string, []string) {
	e.t.Helper()
	last, _ := e.js.Store.LastSequence(e.ctx)
	if err := e.read.WaitFor(e.ctx, last); err != nil {
		e.t.Fatal(err)
	}
	ids, err := e.read.CrossValidated(e.ctx, demo.RankingSlug)
	if err != nil || len(ids) == 0 {
		e.t.Fatalf("cross-validated proposals: %v %v", ids, err)
	}
	pv, _, err := e.cmd.PreviewEdition(e.ctx, demo.RankingSlug, ids)
	if err != nil {
		e.t.Fatal(err)
	}
	id := events.NewID(time.Now())
	if _, err := e.cmd.ScheduleEdition(e.ctx, e.actor("publisher"), domain.ScheduleEdition{CommandID: id,
		Ranking: demo.RankingSlug, Schedule: id, Proposals: ids, PreviewHash: pv.Hash, At: at}); err != nil {
		e.t.Fatalf("schedule: %v", err)
	}
	return id, ids
}

// settled waits until the schedule is no longer pending and returns it.
func (e *env) settled(id string, within time.Duration) *domain.Schedule {
	e.t.Helper()
	deadline := time.Now().Add(within)
	for {
		ed, err := e.cmd.Edition(e.ctx, demo.RankingSlug)
		if err != nil {
			e.t.Fatal(err)
		}
		if s := ed.Schedules[id]; s != nil && s.State != domain.SchedulePending {
			return s
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("schedule %s still pending after %v", id, within)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// published returns the EditionPublished events of the demo ranking.
func (e *env) published() []events.Event {
	e.t.Helper()
	evs, err := e.js.Store.Load(e.ctx, domain.EditionID(demo.RankingSlug), 0)
	if err != nil {
		e.t.Fatal(err)
	}
	var out []events.Event
	for _, ev := range evs {
		if _, ok := ev.Data.(*events.EditionPublished); ok {
			out = append(out, ev)
		}
	}
	return out
}

func TestScheduledEditionFiresOnce(t *testing.T) {
	t.Parallel()
	e := start(t)
	before := len(e.published())
	at := time.Now().Add(2 * time.Second)
	id, _ := e.schedule(at)
	s := e.settled(id, 15*time.Second)
	if s.State != domain.SchedulePublished {
		t.Fatalf("schedule %s: state %s (%s %s), want published", id, s.State, s.Code, s.Detail)
	}
	// The moment is kept to the second, as RFC 3339 without fractions.
	if time.Now().Before(at.Truncate(time.Second)) {
		t.Errorf("published before its moment %v", at)
	}
	// A while longer: nothing fires twice.
	time.Sleep(1500 * time.Millisecond)
	evs := e.published()
	if got := len(evs) - before; got != 1 {
		t.Fatalf("%d editions published by the schedule, want 1", got)
	}
	last := evs[len(evs)-1]
	if d := last.Data.(*events.EditionPublished); d.Schedule != id || last.Actor != "publisher" {
		t.Errorf("edition by %q with schedule %q, want by publisher with %q", last.Actor, d.Schedule, id)
	}
}

func TestScheduledEditionOfRevisedProposalFails(t *testing.T) {
	t.Parallel()
	e := start(t)
	before := len(e.published())
	id, ids := e.schedule(time.Now().Add(2 * time.Second))
	if _, err := e.cmd.Revise(e.ctx, e.actor("editor"), domain.Revise{CommandID: events.NewID(time.Now()), Proposal: ids[0],
		Note: "one more source"}); err != nil {
		t.Fatalf("revise: %v", err)
	}
	s := e.settled(id, 15*time.Second)
	if s.State != domain.ScheduleFailed || s.Code != "schedule.revised" {
		t.Fatalf("schedule: state %s code %q, want failed schedule.revised", s.State, s.Code)
	}
	if got := len(e.published()) - before; got != 0 {
		t.Errorf("%d editions published, want none", got)
	}
	last, _ := e.js.Store.LastSequence(e.ctx)
	if err := e.read.WaitFor(e.ctx, last); err != nil {
		t.Fatal(err)
	}
	page, err := e.read.Inbox(e.ctx, projections.InboxFilter{User: "publisher"})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Rows) == 0 || page.Rows[0].Kind != "schedule_failed" || page.Rows[0].Proposal != id ||
		page.Rows[0].Detail != "schedule.revised" || page.Unread == 0 {
		t.Errorf("publisher's inbox: %+v, want the failure first, unread", page)
	}
}

func TestCanceledScheduleNeverFires(t *testing.T) {
	t.Parallel()
	e := start(t)
	before := len(e.published())
	id, _ := e.schedule(time.Now().Add(2 * time.Second))
	if _, err := e.cmd.CancelSchedule(e.ctx, e.actor("publisher"), domain.CancelSchedule{CommandID: events.NewID(time.Now()),
		Ranking: demo.RankingSlug, Schedule: id}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(3500 * time.Millisecond)
	if got := len(e.published()) - before; got != 0 {
		t.Errorf("%d editions published after the cancel, want none", got)
	}
	// The message schedule was purged, not merely ignored: it never fired.
	nc, err := e.js.Server.Connect("check")
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	st, err := js.Stream(e.ctx, crjs.ScheduleStreamName)
	if err != nil {
		t.Fatal(err)
	}
	key := demo.RankingSlug + "." + id
	for _, subj := range []string{crjs.OnceSubject(Kind, key), crjs.FiredSubject(Kind, key)} {
		if m, err := st.GetLastMsgForSubject(e.ctx, subj); !errors.Is(err, jetstream.ErrMsgNotFound) {
			t.Errorf("%s after the cancel: %v, %v; want none", subj, m, err)
		}
	}
}
