package handler_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/events/jetstream/jstest"
)

// Commands in flight at once on a followed ranking take the fast path
// together: their appends are chained, each expecting the one before, and
// none makes the follower's check.
func TestChainedCommandsMakeNoCheck(t *testing.T) {
	ctx := context.Background()
	st := newStore(t)
	g := newGatedSource(st)
	h := handler.New(st, func() time.Time { return t0 })
	followRanking(t, h, st, g)
	const n = 16
	for i := range n {
		openScoring(t, ctx, h, fmt.Sprintf("p%d", i), fmt.Sprintf("entry%d", i))
	}
	checks := g.nextAfter.Load()
	before, _ := st.LastSequence(ctx)
	for round := range 3 {
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				_, err := h.ProposeScore(ctx, actor("alice"), domain.ProposeScore{CommandID: newCommandID(), Proposal: fmt.Sprintf("p%d", i),
					Criterion: "price", To: 1 + round, Rationale: events.Text{En: "measured"}, Evidence: []string{"e1"}})
				if err != nil {
					t.Errorf("round %d, p%d: %v", round, i, err)
				}
			})
		}
		wg.Wait()
	}
	if last, _ := st.LastSequence(ctx); last != before+3*n {
		t.Errorf("stored %d events, want %d", last-before, 3*n)
	}
	if d := g.nextAfter.Load() - checks; d != 0 {
		t.Errorf("%d commands at once made %d checks, want 0", 3*n, d)
	}
}

// holdingStore holds the answer to one chained append back from the
// handler until the next chained append has been answered, so a link stays
// in flight while the test writes around it.
type holdingStore struct {
	*gatedSource
	hold    atomic.Bool
	held    chan struct{} // the held link is stored
	release chan struct{}
	once    sync.Once
}

func (s *holdingStore) AppendSent(ctx context.Context, expect []events.Expectation, sent func(), ev events.Event) (uint64, bool, error) {
	seq, retry, err := s.Store.AppendSent(ctx, expect, sent, ev)
	select {
	case <-s.held:
		s.once.Do(func() { close(s.release) })
		return seq, retry, err
	default:
	}
	if s.hold.CompareAndSwap(true, false) {
		close(s.held)
		<-s.release
	}
	return seq, retry, err
}

// A link decided on the kept ranking goes right after the link before it
// or not at all: here another writer retires a criterion while the first
// link is in flight and the follower's deliveries are held, and a score
// for that criterion, decided on the kept state that still has it, must be
// refused — not stored after the retirement.
func TestChainRefusesAfterAnotherWrite(t *testing.T) {
	ctx := context.Background()
	st := newStore(t)
	g := newGatedSource(st)
	s := &holdingStore{gatedSource: g, held: make(chan struct{}), release: make(chan struct{})}
	h := handler.New(s, func() time.Time { return t0 })
	handler.AlwaysChain(h)
	followRanking(t, h, st, g)
	openScoring(t, ctx, h, "p1", "nova")
	openScoring(t, ctx, h, "p2", "orbit")

	g.hold(true)
	s.hold.Store(true)
	first := make(chan error, 1)
	go func() {
		_, err := h.ProposeScore(ctx, actor("alice"), domain.ProposeScore{CommandID: newCommandID(), Proposal: "p1", Criterion: "price",
			To: 7, Rationale: events.Text{En: "measured"}, Evidence: []string{"e1"}})
		first <- err
	}()
	select {
	case <-s.held:
	case <-time.After(30 * time.Second):
		t.Fatal("the first command's append never went out as a link")
	}
	d := rankingDefinition()
	d.Criteria = slices.DeleteFunc(d.Criteria, func(c events.Criterion) bool { return c.Slug == "perf" })
	d.Criteria[0].Weight += 30
	retired := jstest.DefineRanking(t, st, d, nil)
	_, err := h.ProposeScore(ctx, actor("alice"), domain.ProposeScore{CommandID: newCommandID(), Proposal: "p2", Criterion: "perf",
		To: 3, Rationale: events.Text{En: "measured"}, Evidence: []string{"e1"}})
	if !errors.Is(err, domain.ErrInvalid) {
		t.Errorf("score for a criterion retired behind the chain: %v, want ErrInvalid", err)
	}
	if err := <-first; err != nil {
		t.Errorf("the first link: %v", err)
	}
	g.hold(false)
	if last, _ := st.LastSequence(ctx); last != retired {
		t.Errorf("something was stored after the retirement: last sequence %d, retirement at %d", last, retired)
	}
}
