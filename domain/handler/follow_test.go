package handler_test

import (
	"context"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/events/jetstream"
	"github.com/crossrank/crossrank/events/jetstream/jstest"
)

// gatedSource is the real store whose stream deliveries to the follower can
// be held back (a follower that lags behind another replica's writes), and
// which counts the reads a command makes.
type gatedSource struct {
	*jetstream.Store
	mu      sync.Mutex
	open    *sync.Cond
	closed  bool
	applied atomic.Uint64 // the last sequence handed to the follower

	nextAfter   atomic.Int64
	rankingLoad atomic.Int64
	onLoad      func() // called once, inside the first Load of the ranking
}

func newGatedSource(st *jetstream.Store) *gatedSource {
	g := &gatedSource{Store: st}
	g.open = sync.NewCond(&g.mu)
	return g
}

func (g *gatedSource) hold(v bool) {
	g.mu.Lock()
	g.closed = v
	g.mu.Unlock()
	g.open.Broadcast()
}

func (g *gatedSource) Follow(ctx context.Context, from uint64, keep func(string) bool, fn func(uint64, *events.Event) error) error {
	return g.Store.Follow(ctx, from, keep, func(seq uint64, e *events.Event) error {
		g.mu.Lock()
		for g.closed {
			g.open.Wait()
		}
		g.mu.Unlock()
		err := fn(seq, e)
		g.applied.Store(seq)
		return err
	})
}

func (g *gatedSource) NextAfter(ctx context.Context, after uint64, filter string) (uint64, error) {
	g.nextAfter.Add(1)
	return g.Store.NextAfter(ctx, after, filter)
}

func (g *gatedSource) Load(ctx context.Context, a events.Aggregate, after uint64) ([]events.Event, error) {
	evs, err := g.Store.Load(ctx, a, after)
	if a.Kind == events.KindRanking {
		if g.rankingLoad.Add(1) == 1 && g.onLoad != nil {
			g.onLoad()
		}
	}
	return evs, err
}

// withCriterion is the test ranking redefined with one more criterion, as
// another replica (or an older desk) would append it.
func withCriterion(slug string) events.RankingDefined {
	d := rankingDefinition()
	d.Criteria = []events.Criterion{
		{Slug: "price", Name: events.Text{En: "Price"}, Weight: 40},
		{Slug: "perf", Name: events.Text{En: "Performance"}, Weight: 30},
		{Slug: "support", Name: events.Text{En: "Support"}, Weight: 20},
		{Slug: slug, Name: events.Text{En: slug}, Weight: 10},
	}
	return d
}

// waitApplied waits until the follower has been handed seq.
func waitApplied(t *testing.T, g *gatedSource, seq uint64) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for g.applied.Load() < seq {
		if time.Now().After(deadline) {
			t.Fatalf("follower did not reach %d (at %d)", seq, g.applied.Load())
		}
		time.Sleep(time.Millisecond)
	}
}

func openScoring(t *testing.T, ctx context.Context, h *handler.Handler, id, entry string) {
	t.Helper()
	must(t)(h.OpenProposal(ctx, actor("alice"), domain.OpenProposal{CommandID: newCommandID(), ID: id, Ranking: rk, Entry: entry,
		Title: "Add " + entry, NewEntry: newEntry()}))
	must(t)(h.AddEvidence(ctx, actor("alice"), domain.AddEvidence{CommandID: newCommandID(), Proposal: id, Claim: events.Text{En: "measured"},
		SourceURL: "https://" + entry + ".example/", Excerpt: "measured", ObservedOn: "2026-02-20"}))
}

// followRanking starts h's follower on g (stopped when the test ends),
// defines the test ranking in st and waits until h follows.
func followRanking(t *testing.T, h *handler.Handler, st *jetstream.Store, g *gatedSource) {
	t.Helper()
	fctx, stop := context.WithCancel(context.Background())
	followed := make(chan struct{})
	go func() { defer close(followed); _ = h.Follow(fctx, g) }()
	t.Cleanup(func() { stop(); <-followed })
	jstest.DefineRanking(t, st, rankingDefinition(), nil)
	waitFollowing(t, h)
}

// A command decides on the ranking as stored when it starts, whether or not
// the follower has applied the latest change: here another writer adds a
// criterion while the follower's deliveries are held, and a score for the
// new criterion must be accepted at once (it would be refused as unknown on
// the follower's stale state).
func TestFollowedReadsAreCurrent(t *testing.T) {
	ctx := context.Background()
	st := newStore(t)
	g := newGatedSource(st)
	h := handler.New(st, func() time.Time { return t0 })
	followRanking(t, h, st, g)
	openScoring(t, ctx, h, "p1", "nova")

	g.hold(true)
	seq := jstest.DefineRanking(t, st, withCriterion("energy"), nil)
	res := must(t)(h.ProposeScore(ctx, actor("alice"), domain.ProposeScore{CommandID: newCommandID(), Proposal: "p1", Criterion: "energy",
		To: 7, Rationale: events.Text{En: "measured"}, Evidence: []string{"e1"}}))
	g.hold(false)
	// Until the follower has been handed that score's event too (after
	// the held definition), the stream holds one it has not seen, and the
	// next command's fast path rightly misses: wait for it, not for the
	// definition alone (under -race the follower lags enough to matter).
	waitApplied(t, g, max(seq, res.Sequence))

	// Caught up and alone, a command makes no round trip before its
	// append, which expects the stream's last sequence (the fast path).
	n, loads := g.nextAfter.Load(), g.rankingLoad.Load()
	must(t)(h.ProposeScore(ctx, actor("alice"), domain.ProposeScore{CommandID: newCommandID(), Proposal: "p1", Criterion: "perf",
		To: 6, Rationale: events.Text{En: "measured"}, Evidence: []string{"e1"}}))
	if d := g.nextAfter.Load() - n; d != 0 {
		t.Errorf("a command alone on a followed ranking made %d checks, want 0", d)
	}
	if d := g.rankingLoad.Load() - loads; d != 0 {
		t.Errorf("a command on a followed ranking read the ranking %d times, want 0", d)
	}
	// The next one too: its own last event is known current at once.
	must(t)(h.ProposeScore(ctx, actor("alice"), domain.ProposeScore{CommandID: newCommandID(), Proposal: "p1", Criterion: "support",
		To: 6, Rationale: events.Text{En: "measured"}, Evidence: []string{"e1"}}))
	if d := g.nextAfter.Load() - n; d != 0 {
		t.Errorf("a second command alone made %d checks, want 0", d)
	}
	// Another writer stored something the follower has not been handed:
	// the fast path's expectation fails, and the command is decided again
	// after one check.
	g.hold(true)
	other := handler.New(st, func() time.Time { return t0 })
	openScoring(t, ctx, other, "p2", "orbit")
	must(t)(h.ProposeScore(ctx, actor("alice"), domain.ProposeScore{CommandID: newCommandID(), Proposal: "p1", Criterion: "price",
		To: 4, Rationale: events.Text{En: "measured"}, Evidence: []string{"e1"}}))
	if d := g.nextAfter.Load() - n; d != 1 {
		t.Errorf("after another writer's events, %d checks, want 1", d)
	}
	g.hold(false)

	// And a change the follower has applied is used as it is.
	seq = jstest.DefineRanking(t, st, withCriterion("latency"), nil)
	waitApplied(t, g, seq)
	must(t)(h.ProposeScore(ctx, actor("alice"), domain.ProposeScore{CommandID: newCommandID(), Proposal: "p1", Criterion: "latency",
		To: 5, Rationale: events.Text{En: "measured"}, Evidence: []string{"e1"}}))
	if _, err := h.ProposeScore(ctx, actor("alice"), domain.ProposeScore{CommandID: newCommandID(), Proposal: "p1", Criterion: "energy",
		To: 5, Rationale: events.Text{En: "measured"}, Evidence: []string{"e1"}}); !errors.Is(err, domain.ErrInvalid) {
		t.Errorf("score for a criterion the ranking no longer has: %v, want ErrInvalid", err)
	}

	// A criterion retired while the follower is held: the kept state still
	// has it and would accept a score for it; the fast path's expectation
	// fails and the command is refused on the stored ranking.
	g.hold(true)
	d := withCriterion("latency")
	d.Criteria = slices.DeleteFunc(d.Criteria, func(c events.Criterion) bool { return c.Slug == "perf" })
	d.Criteria[0].Weight += 30
	jstest.DefineRanking(t, st, d, nil)
	if _, err := h.ProposeScore(ctx, actor("alice"), domain.ProposeScore{CommandID: newCommandID(), Proposal: "p1", Criterion: "perf",
		To: 3, Rationale: events.Text{En: "measured"}, Evidence: []string{"e1"}}); !errors.Is(err, domain.ErrInvalid) {
		t.Errorf("score for a criterion retired a moment ago: %v, want ErrInvalid", err)
	}
	g.hold(false)
}

// An aggregate the follower starts keeping is loaded from the store while
// the stream goes on: an event stored during that load reaches the kept
// state through the follower, not lost between the two.
func TestFollowedLoadOverlapsTheStream(t *testing.T) {
	ctx := context.Background()
	st := newStore(t)
	g := newGatedSource(st)
	jstest.DefineRanking(t, st, rankingDefinition(), nil)
	g.onLoad = func() {
		// After the load has read the store, before the follower keeps
		// the state: another writer changes the ranking, and the follower
		// is handed the event.
		seq := jstest.DefineRanking(t, st, withCriterion("energy"), nil)
		waitApplied(t, g, seq)
	}
	h := handler.New(st, func() time.Time { return t0 })
	fctx, stop := context.WithCancel(ctx)
	defer stop()
	go func() { _ = h.Follow(fctx, g) }()
	waitFollowing(t, h)
	openScoring(t, ctx, h, "p1", "nova") // the first read of the ranking loads it
	if g.rankingLoad.Load() != 1 {
		t.Fatalf("ranking loaded %d times, want once", g.rankingLoad.Load())
	}
	must(t)(h.ProposeScore(ctx, actor("alice"), domain.ProposeScore{CommandID: newCommandID(), Proposal: "p1", Criterion: "energy",
		To: 7, Rationale: events.Text{En: "measured"}, Evidence: []string{"e1"}}))
	if g.rankingLoad.Load() != 1 {
		t.Errorf("ranking loaded %d times, want once (the follower keeps it)", g.rankingLoad.Load())
	}
}

// waitFollowing waits until h's follower has started.
func waitFollowing(t *testing.T, h *handler.Handler) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !h.Following() {
		if time.Now().After(deadline) {
			t.Fatal("follower did not start")
		}
		time.Sleep(time.Millisecond)
	}
}
