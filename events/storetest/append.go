package storetest

import (
	"errors"
	"sync"

	"github.com/crossrank/crossrank/events"
)

func testRoundTrip(f *fixture) {
	agg := f.proposal()
	e := f.event(agg, 1)
	e.Source = "/crossrank/storetest"
	e.Actor = "reviewer-林"
	e.CorrelationID = "corr-" + newID()
	e.CausationID = "cause-" + newID()
	e.AuthVia = events.Via{Method: events.ViaToken, TokenID: newID(), TokenName: "导入脚本 ;="}.String()
	seq := f.mustAppend(expect(agg, 0), e)
	if seq == 0 {
		f.t.Fatal("Append returned sequence 0")
	}
	got := f.load(agg, 0)
	if len(got) != 1 {
		f.t.Fatalf("Load: %d events, want 1", len(got))
	}
	f.sameEvent(got[0], e, seq)

	var replayed []events.Event
	if err := f.s.Replay(f.ctx, seq, func(e events.Event) error {
		replayed = append(replayed, e)
		return nil
	}); err != nil {
		f.t.Fatalf("Replay: %v", err)
	}
	if len(replayed) != 1 {
		f.t.Fatalf("Replay from %d: %d events, want 1", seq, len(replayed))
	}
	f.sameEvent(replayed[0], e, seq)
	if last := f.last(); last != seq {
		f.t.Errorf("LastSequence = %d, want %d", last, seq)
	}
}

func testConflict(f *fixture) {
	agg := f.proposal()
	first := f.mustAppend(expect(agg, 0), f.event(agg, 1))
	tests := []struct {
		name string
		last uint64
	}{
		{"expects empty aggregate", 0},
		{"expects an older sequence", first - 1},
		{"expects a future sequence", first + 1000},
	}
	for _, tt := range tests {
		_, err := f.s.Append(f.ctx, expect(agg, tt.last), f.event(agg, 2))
		if !errors.Is(err, events.ErrConflict) {
			f.t.Errorf("%s: Append error = %v, want ErrConflict", tt.name, err)
		}
	}
	second := f.mustAppend(expect(agg, first), f.event(agg, 3))
	if second <= first {
		f.t.Errorf("second sequence %d not after first %d", second, first)
	}
	if got := f.load(agg, 0); len(got) != 2 {
		f.t.Errorf("aggregate holds %d events after conflicts, want 2", len(got))
	}
}

// testExpectOtherAggregate guards a write with an aggregate it does not
// write to (a proposal's event checked against its ranking, say).
func testExpectOtherAggregate(f *fixture) {
	guard, agg := f.entry(), f.proposal()
	guardSeq := f.mustAppend(expect(guard, 0), f.event(guard, 1))
	x := []events.Expectation{{Aggregate: guard, LastSeq: 0}}
	if _, err := f.s.Append(f.ctx, x, f.event(agg, 1)); !errors.Is(err, events.ErrConflict) {
		f.t.Fatalf("stale guard: Append error = %v, want ErrConflict", err)
	}
	x = []events.Expectation{{Aggregate: guard, LastSeq: guardSeq}, {Aggregate: agg, LastSeq: 0}}
	evs := f.events(agg, 2)
	f.mustAppend(x, evs...)
	f.wantIDs("guarded aggregate", f.load(agg, 0), evs)
}

func testConcurrentAppends(f *fixture) {
	const writers = 50
	agg := f.proposal()
	var (
		wg        sync.WaitGroup
		mu        sync.Mutex
		won       []events.Event
		conflicts int
		others    []error
	)
	start := make(chan struct{})
	for i := range writers {
		e := f.event(agg, i+1)
		wg.Go(func() {
			<-start
			_, err := f.s.Append(f.ctx, expect(agg, 0), e)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				won = append(won, e)
			case errors.Is(err, events.ErrConflict):
				conflicts++
			default:
				others = append(others, err)
			}
		})
	}
	close(start)
	wg.Wait()
	if len(others) > 0 {
		f.t.Fatalf("%d appends failed with neither success nor ErrConflict, first: %v", len(others), others[0])
	}
	if len(won) != 1 || conflicts != writers-1 {
		f.t.Fatalf("%d succeeded and %d conflicted, want 1 and %d", len(won), conflicts, writers-1)
	}
	f.wantIDs("aggregate after the race", f.load(agg, 0), won)
}

// testRetry appends the same event twice, as a client does when the first
// acknowledgement was lost: one event is stored and both calls succeed.
func testRetry(f *fixture) {
	agg := f.proposal()
	e := f.event(agg, 1)
	first := f.mustAppend(expect(agg, 0), e)
	again := f.mustAppend(expect(agg, 0), e)
	if again != first {
		f.t.Errorf("retry returned sequence %d, want %d", again, first)
	}
	f.wantIDs("aggregate after retry", f.load(agg, 0), []events.Event{e})
}

func testRetryAfterLaterEvents(f *fixture) {
	agg := f.proposal()
	e1, e2 := f.event(agg, 1), f.event(agg, 2)
	s1 := f.mustAppend(expect(agg, 0), e1)
	f.mustAppend(expect(agg, s1), e2)
	if got := f.mustAppend(expect(agg, 0), e1); got != s1 {
		f.t.Errorf("late retry returned sequence %d, want %d", got, s1)
	}
	// A different event with the stale expectation is still a conflict.
	if _, err := f.s.Append(f.ctx, expect(agg, s1), f.event(agg, 3)); !errors.Is(err, events.ErrConflict) {
		f.t.Errorf("stale append error = %v, want ErrConflict", err)
	}
	f.wantIDs("aggregate", f.load(agg, 0), []events.Event{e1, e2})
}

func testBatchConflict(f *fixture) {
	agg := f.proposal()
	first := f.event(agg, 1)
	f.mustAppend(expect(agg, 0), first)
	before := f.last()
	_, err := f.s.Append(f.ctx, expect(agg, 0), f.events(agg, 3)...)
	if !errors.Is(err, events.ErrConflict) {
		f.t.Fatalf("batch with a stale expectation: error = %v, want ErrConflict", err)
	}
	if after := f.last(); after != before {
		f.t.Errorf("LastSequence moved from %d to %d after a refused batch", before, after)
	}
	f.wantIDs("aggregate after refused batch", f.load(agg, 0), []events.Event{first})
}

func testBatchAcrossAggregates(f *fixture) {
	p, e := f.proposal(), f.entry()
	p1, e1, p2 := f.event(p, 1), f.event(e, 1), f.event(p, 2)
	x := []events.Expectation{{Aggregate: p, LastSeq: 0}, {Aggregate: e, LastSeq: 0}}
	last := f.mustAppend(x, p1, e1, p2)
	gotP, gotE := f.load(p, 0), f.load(e, 0)
	f.wantIDs("proposal", gotP, []events.Event{p1, p2})
	f.wantIDs("entry", gotE, []events.Event{e1})
	if gotP[1].Sequence != last {
		f.t.Errorf("Append returned %d, last event stored at %d", last, gotP[1].Sequence)
	}
	if gotE[0].Sequence != gotP[0].Sequence+1 || gotP[1].Sequence != gotE[0].Sequence+1 {
		f.t.Errorf("batch not contiguous: %d %d %d", gotP[0].Sequence, gotE[0].Sequence, gotP[1].Sequence)
	}

	// One stale expectation refuses the whole batch, on both aggregates.
	before := f.last()
	x = []events.Expectation{{Aggregate: p, LastSeq: last}, {Aggregate: e, LastSeq: 0}}
	if _, err := f.s.Append(f.ctx, x, f.event(p, 3), f.event(e, 2)); !errors.Is(err, events.ErrConflict) {
		f.t.Fatalf("batch with one stale expectation: error = %v, want ErrConflict", err)
	}
	if after := f.last(); after != before {
		f.t.Errorf("LastSequence moved from %d to %d", before, after)
	}
	f.wantIDs("proposal after refused batch", f.load(p, 0), []events.Event{p1, p2})
	f.wantIDs("entry after refused batch", f.load(e, 0), []events.Event{e1})
}

func testBatchRetry(f *fixture) {
	p, e := f.proposal(), f.entry()
	batch := []events.Event{f.event(p, 1), f.event(e, 1), f.event(p, 2)}
	x := []events.Expectation{{Aggregate: p, LastSeq: 0}, {Aggregate: e, LastSeq: 0}}
	first := f.mustAppend(x, batch...)
	if again := f.mustAppend(x, batch...); again != first {
		f.t.Errorf("batch retry returned %d, want %d", again, first)
	}
	f.wantIDs("proposal", f.load(p, 0), []events.Event{batch[0], batch[2]})
	f.wantIDs("entry", f.load(e, 0), []events.Event{batch[1]})
}

// testExpectStream guards a write with the whole log's last sequence:
// nothing at all may have been stored since, on any aggregate; with the
// aggregate's own expectation as well, both must hold.
func testExpectStream(f *fixture) {
	agg, other := f.proposal(), f.proposal()
	first := f.mustAppend(expect(agg, 0), f.event(agg, 1))
	stream := func(last uint64) events.Expectation { return events.Expectation{LastSeq: last, Stream: true} }
	second := f.mustAppend([]events.Expectation{stream(first), {Aggregate: agg, LastSeq: first}}, f.event(agg, 2))
	f.mustAppend(expect(other, 0), f.event(other, 1)) // another aggregate moves the log on
	before := f.last()
	if _, err := f.s.Append(f.ctx, []events.Expectation{stream(second), {Aggregate: agg, LastSeq: second}}, f.event(agg, 3)); !errors.Is(err, events.ErrConflict) {
		f.t.Errorf("stream moved on: Append error = %v, want ErrConflict", err)
	}
	// In a batch too, and with an aggregate expectation that holds.
	if _, err := f.s.Append(f.ctx, []events.Expectation{stream(second)}, f.event(agg, 4), f.event(agg, 5)); !errors.Is(err, events.ErrConflict) {
		f.t.Errorf("stream moved on, batch: Append error = %v, want ErrConflict", err)
	}
	if f.last() != before {
		f.t.Errorf("a refused append stored something: last sequence %d, want %d", f.last(), before)
	}
	f.mustAppend([]events.Expectation{stream(before), {Aggregate: agg, LastSeq: second}}, f.event(agg, 6), f.event(agg, 7))
	if _, err := f.s.Append(f.ctx, []events.Expectation{stream(1), stream(1)}, f.event(agg, 8)); !errors.Is(err, events.ErrMalformed) {
		f.t.Errorf("two stream expectations: Append error = %v, want ErrMalformed", err)
	}
}

// testExpectAfter: with Expectation.After an append goes right after the
// event with that id, whatever its sequence, or not at all.
func testExpectAfter(f *fixture) {
	agg, other := f.proposal(), f.proposal()
	after := func(id string) events.Expectation { return events.Expectation{Stream: true, After: id} }
	a, b, o := f.event(agg, 1), f.event(agg, 2), f.event(other, 1)
	first := f.mustAppend(expect(agg, 0), a)
	second, err := f.s.Append(f.ctx, []events.Expectation{after(a.ID), {Aggregate: agg, LastSeq: first}}, b)
	if errors.Is(err, errors.ErrUnsupported) {
		f.t.Skipf("this store does not offer the expectation: %v", err)
	}
	if err != nil {
		f.t.Fatalf("right after the expected event: Append error = %v", err)
	}
	f.mustAppend(expect(other, 0), o) // another aggregate moves the log on
	before := f.last()
	if _, err := f.s.Append(f.ctx, []events.Expectation{after(b.ID)}, f.event(agg, 3)); !errors.Is(err, events.ErrConflict) {
		f.t.Errorf("another event since: Append error = %v, want ErrConflict", err)
	}
	if _, err := f.s.Append(f.ctx, []events.Expectation{after(newID())}, f.event(agg, 4)); !errors.Is(err, events.ErrConflict) {
		f.t.Errorf("an id never stored: Append error = %v, want ErrConflict", err)
	}
	if f.last() != before {
		f.t.Errorf("a refused append stored something: last sequence %d, want %d", f.last(), before)
	}
	f.mustAppend([]events.Expectation{after(o.ID), {Aggregate: agg, LastSeq: second}}, f.event(agg, 5))
	if _, err := f.s.Append(f.ctx, []events.Expectation{after(o.ID)}, f.event(agg, 6), f.event(agg, 7)); !errors.Is(err, events.ErrMalformed) {
		f.t.Errorf("two events after one id: Append error = %v, want ErrMalformed", err)
	}
}
