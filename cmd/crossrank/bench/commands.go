package bench

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/crossrank/crossrank/cmd/crossrank/server"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/events/jetstream"
	"github.com/crossrank/crossrank/projections"
)

// parallelAggregates is how many aggregates take commands at once.
const parallelAggregates = 32

// recorder keeps the events appended through it, so the raw reference can
// publish exactly the same messages (subjects, headers, bodies).
type recorder struct {
	*jetstream.Store
	mu      sync.Mutex
	evs     []events.Event
	appends stage
}

// stage adds up how long the calls of one stage of a command took.
type stage struct{ n, ns atomic.Int64 }

func (s *stage) since(t time.Time) { s.n.Add(1); s.ns.Add(int64(time.Since(t))) }

// mean is the average call in µs, and resets the stage.
func (s *stage) mean() float64 {
	n, ns := s.n.Swap(0), s.ns.Swap(0)
	return float64(ns) / float64(max(n, 1)) / 1e3
}

// checked is the follower's source with its checks timed (follow.go: one
// round trip per ranking a command reads, unless it runs alone).
type checked struct {
	handler.FollowSource
	checks stage
}

func (c *checked) NextAfter(ctx context.Context, after uint64, filter string) (uint64, error) {
	defer c.checks.since(time.Now())
	return c.FollowSource.NextAfter(ctx, after, filter)
}

func (r *recorder) Append(ctx context.Context, expect []events.Expectation, evs ...events.Event) (uint64, error) {
	defer r.appends.since(time.Now())
	seq, err := r.Store.Append(ctx, expect, evs...)
	r.keep(err, evs...)
	return seq, err
}

// AppendReport and AppendSent record too: the handler appends through
// them (handler.Store), alone and as chain links.
func (r *recorder) AppendReport(ctx context.Context, expect []events.Expectation, evs ...events.Event) (uint64, bool, error) {
	defer r.appends.since(time.Now())
	seq, retry, err := r.Store.AppendReport(ctx, expect, evs...)
	r.keep(err, evs...)
	return seq, retry, err
}

func (r *recorder) AppendSent(ctx context.Context, expect []events.Expectation, sent func(), ev events.Event) (uint64, bool, error) {
	defer r.appends.since(time.Now())
	seq, retry, err := r.Store.AppendSent(ctx, expect, sent, ev)
	r.keep(err, ev)
	return seq, retry, err
}

var _ handler.Store = (*recorder)(nil)

// keep records evs when their append succeeded.
func (r *recorder) keep(err error, evs ...events.Event) {
	if err != nil {
		return
	}
	r.mu.Lock()
	r.evs = append(r.evs, evs...)
	r.mu.Unlock()
}

func (r *recorder) take() []events.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.evs
	r.evs = nil
	return out
}

// commandsResult is one run of the command benchmark, in commands (or raw
// publishes) per second.
type commandsResult struct {
	seq, par, rawSeq, rawPar float64
	// RawPublish on a stream that also feeds one follower, as the
	// handler's does (its follower's consumer is sent every event).
	followedSeq, followedPar float64
	// through the HTTP API from parallelAggregates clients, and RawPublish
	// of the same events as many at once
	api, rawAPI float64
}

// measureCommands measures commands through the handler `crossrank serve`
// builds (server.New: load → decide → append, SyncAlways) on a fresh
// store, one aggregate at a time and then 32 aggregates in parallel, then
// through its HTTP API from 32 clients, and RawPublish of the very same
// messages on another fresh store, sequentially and 32 at a time. Handler and raw
// alternate in short rounds (a few cycles of commands, then their events
// raw), so both see the machine in the same state: other work on it moves
// both figures, not their ratio.
func measureCommands(ctx context.Context, o *options, run int) (commandsResult, error) {
	var res commandsResult
	dir := filepath.Join(o.scratch, fmt.Sprintf("commands-%d", run))
	defer os.RemoveAll(dir)
	b, err := openDataStore(ctx, filepath.Join(dir, "desk"), true)
	if err != nil {
		return res, err
	}
	defer b.close()
	raw, err := openDataStore(ctx, filepath.Join(dir, "raw"), true)
	if err != nil {
		return res, err
	}
	defer raw.close()
	rawf, err := openDataStore(ctx, filepath.Join(dir, "raw-followed"), true)
	if err != nil {
		return res, err
	}
	defer rawf.close()
	fh := handler.New(rawf.events, nil)
	ffctx, stopRawFollow := context.WithCancel(ctx)
	defer stopRawFollow()
	go func() { _ = fh.Follow(ffctx, rawf.events) }()
	spec := deskSpec{slug: "cmdbench", entries: parallelAggregates, evidence: 2, perEdition: parallelAggregates, seed: o.seed}
	if err := generateDesk(ctx, b.events, spec); err != nil {
		return res, err
	}
	rec := &recorder{Store: b.events}
	read, err := projections.Open(b.readPath())
	if err != nil {
		return res, err
	}
	defer read.Close()
	srv, err := server.New(server.Config{Events: rec, Read: read, Addr: "127.0.0.1:0",
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		return res, err
	}
	h := srv.Commands
	fctx, stopFollow := context.WithCancel(ctx)
	defer stopFollow()
	src := &checked{FollowSource: b.events}
	go func() { _ = h.Follow(fctx, src) }()

	// roundWith runs workers × cycles command cycles from cycle k (drive
	// runs one worker's), then the same events raw from as many
	// goroutines, and adds up both times; round drives the handler.
	var hDur, rDur, fDur time.Duration
	var n int
	roundWith := func(tag string, workers, k, cycles int, drive func(tag string, w, k, cycles int) error) error {
		var wg sync.WaitGroup
		errs := make(chan error, workers)
		start := time.Now()
		for w := range workers {
			wg.Go(func() {
				if err := drive(tag, w, k, cycles); err != nil {
					errs <- err
				}
			})
		}
		wg.Wait()
		hDur += time.Since(start)
		close(errs)
		if err := <-errs; err != nil {
			return err
		}
		evs := rec.take()
		if len(evs) != workers*cycles*cycleCommands {
			return fmt.Errorf("commands appended %d events, want one per command", len(evs))
		}
		n += len(evs)
		d, err := rawPublish(ctx, raw, evs, workers)
		rDur += d
		if err != nil {
			return err
		}
		d, err = rawPublish(ctx, rawf, evs, workers)
		fDur += d
		return err
	}
	round := func(tag string, workers, k, cycles int) error {
		return roundWith(tag, workers, k, cycles, func(tag string, w, k, cycles int) error {
			return runCycles(ctx, h, spec, tag, w, k, cycles)
		})
	}
	const seqRound, parRound = 5, 2
	for k := 0; k < o.cmdCycles; k += seqRound {
		if err := round(fmt.Sprintf("r%d-seq", run), 1, k, seqRound); err != nil {
			return res, err
		}
	}
	res.seq, res.rawSeq, res.followedSeq = float64(n)/hDur.Seconds(), float64(n)/rDur.Seconds(), float64(n)/fDur.Seconds()
	o.logf("  sequential: %d commands in %v, raw %v", n, hDur.Round(time.Millisecond), rDur.Round(time.Millisecond))
	hDur, rDur, fDur, n = 0, 0, 0, 0
	src.checks.mean()
	rec.appends.mean()
	for k := 0; k < max(parRound, o.cmdCycles/4); k += parRound {
		if err := round(fmt.Sprintf("r%d-par", run), parallelAggregates, k, parRound); err != nil {
			return res, err
		}
	}
	res.par, res.rawPar, res.followedPar = float64(n)/hDur.Seconds(), float64(n)/rDur.Seconds(), float64(n)/fDur.Seconds()
	o.logf("  %d in parallel: %d commands in %v, raw %v", parallelAggregates, n, hDur.Round(time.Millisecond), rDur.Round(time.Millisecond))
	// Where a command's time goes when 32 run at once: a raw publish then
	// waits about 32 / (raw publishes/s) for its ack.
	checks := src.checks.n.Load()
	o.logf("  in parallel, per command: ranking check %.0f µs (%d checks), append %.0f µs; a raw publish %.0f µs", src.checks.mean(), checks, rec.appends.mean(), float64(parallelAggregates)/(float64(n)/rDur.Seconds())*1e6)
	o.logf("  commands/s: %.0f sequential, %.0f parallel; RawPublish/s: %.0f sequential, %.0f parallel; with a follower on the stream %.0f, %.0f", res.seq, res.par, res.rawSeq, res.rawPar, res.followedSeq, res.followedPar)

	// The same cycles from 32 HTTP clients through the served API.
	hDur, rDur, fDur, n = 0, 0, 0, 0
	api, err := startAPI(ctx, srv, read, b, deskUsers(spec))
	if err != nil {
		return res, err
	}
	defer api.stop()
	rec.take() // the tokens' events
	for k := 0; k < max(parRound, o.cmdCycles/4); k += parRound {
		if err := roundWith(fmt.Sprintf("r%d-api", run), parallelAggregates, k, parRound, func(tag string, w, k, cycles int) error {
			return api.runCycles(ctx, spec, tag, w, k, cycles)
		}); err != nil {
			return res, err
		}
	}
	res.api, res.rawAPI = float64(n)/hDur.Seconds(), float64(n)/rDur.Seconds()
	o.logf("  through the HTTP API, %d clients: %d commands in %v, raw %v (%d appends sent as chain links in all)", parallelAggregates, n,
		hDur.Round(time.Millisecond), rDur.Round(time.Millisecond), api.chained())
	return res, nil
}

// cycleCommands is the number of commands in one cycle of runCycles.
const cycleCommands = 10

// runCycles runs cycles from to from+n-1 on published entry w of spec
// (proposal ids start with tag), each a
// new proposal taken through the commands a desk sends most, one at a time
// and each with a fresh command id as the web layer gives it: open, four
// evidence items, two score changes, submit, one approval, withdraw. Every
// command appends one event (the quorum-reaching second approval, an
// atomic batch, is left out so that sequential and raw compare one publish
// each).
func runCycles(ctx context.Context, h *handler.Handler, spec deskSpec, tag string, w, from, n int) error {
	editor := domain.Actor{Name: fmt.Sprintf("%s-editor%d", spec.slug, 1+w%4), Roles: []string{domain.RoleEditor}}
	reviewer := domain.Actor{Name: spec.slug + "-reviewer1", Roles: []string{domain.RoleReviewer}}
	entry := fmt.Sprintf("platform-%05d", w)
	id := func() string { return events.NewID(time.Now()) }
	for k := from; k < from+n; k++ {
		p := fmt.Sprintf("%s-w%02d-%05d", tag, w, k)
		steps := []func() (handler.Result, error){
			func() (handler.Result, error) {
				return h.OpenProposal(ctx, editor, domain.OpenProposal{CommandID: id(), ID: p, Ranking: spec.slug, Entry: entry,
					Title: "Rescore " + entry, Summary: "New prices this month."})
			},
		}
		for e := 1; e <= 4; e++ {
			steps = append(steps, func() (handler.Result, error) {
				return h.AddEvidence(ctx, editor, domain.AddEvidence{CommandID: id(), Proposal: p, Claim: events.Text{En: fmt.Sprintf("Claim %d", e)},
					SourceURL: fmt.Sprintf("https://example.com/%s/%s/%d", entry, p, e), Excerpt: deskExcerpt,
					ObservedOn: "2026-02-01", ValidForDays: 180})
			})
		}
		for c := 1; c <= 2; c++ {
			steps = append(steps, func() (handler.Result, error) {
				return h.ProposeScore(ctx, editor, domain.ProposeScore{CommandID: id(), Proposal: p, Criterion: fmt.Sprintf("c%d", c),
					To: (k + c) % 11, Rationale: events.Text{En: "Follows from the new price list."}, Evidence: []string{fmt.Sprintf("e%d", c)}})
			})
		}
		steps = append(steps,
			func() (handler.Result, error) {
				return h.Submit(ctx, editor, domain.Submit{CommandID: id(), Proposal: p})
			},
			func() (handler.Result, error) {
				return h.CastVote(ctx, reviewer, domain.CastVote{CommandID: id(), Proposal: p, Revision: 1, Verdict: events.Approve,
					VerifiedEvidence: []string{"e1", "e2", "e3", "e4"}})
			},
			func() (handler.Result, error) {
				return h.Withdraw(ctx, editor, domain.Withdraw{CommandID: id(), Proposal: p, Reason: "Superseded."})
			})
		for i, step := range steps {
			if _, err := step(); err != nil {
				return fmt.Errorf("cycle %d step %d on %s: %w", k, i, p, err)
			}
		}
	}
	return nil
}
