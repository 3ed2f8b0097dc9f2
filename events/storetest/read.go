package storetest

import (
	"errors"

	"github.com/crossrank/crossrank/events"
)

func testLoadAfter(f *fixture) {
	agg, other := f.proposal(), f.proposal()
	evs := f.events(agg, 5)
	var seqs []uint64
	for i, e := range evs {
		var last uint64
		if i > 0 {
			last = seqs[i-1]
		}
		seqs = append(seqs, f.mustAppend(expect(agg, last), e))
		f.mustAppend(nil, f.event(other, i+1)) // interleaved writes elsewhere
	}
	tests := []struct {
		name  string
		after uint64
		want  []events.Event
	}{
		{"from the start", 0, evs},
		{"after the third", seqs[2], evs[3:]},
		{"between two events", seqs[2] + 1, evs[3:]},
		{"after the last", seqs[4], nil},
		{"past the end of the log", seqs[4] + 1000, nil},
	}
	for _, tt := range tests {
		got := f.load(agg, tt.after)
		f.wantIDs(tt.name, got, tt.want)
		f.wantOrdered(tt.name, got)
		for _, e := range got {
			if e.Sequence <= tt.after {
				f.t.Errorf("%s: event at %d, not after %d", tt.name, e.Sequence, tt.after)
			}
		}
	}
	if got := f.load(f.proposal(), 0); len(got) != 0 {
		f.t.Errorf("aggregate never written: %d events", len(got))
	}
}

// testLoadMany loads an aggregate larger than a store is likely to return
// in one round trip.
func testLoadMany(f *fixture) {
	const n, batch = 1500, 500
	agg := f.proposal()
	want := f.events(agg, n)
	var last uint64
	for i := 0; i < n; i += batch {
		last = f.mustAppend(expect(agg, last), want[i:i+batch]...)
	}
	got := f.load(agg, 0)
	f.wantIDs("large aggregate", got, want)
	f.wantOrdered("large aggregate", got)
	f.wantIDs("large aggregate tail", f.load(agg, got[n-batch-1].Sequence), want[n-batch:])
}

func testReplayFromMiddle(f *fixture) {
	p, e := f.proposal(), f.entry()
	var (
		all  []events.Event
		seqs []uint64
	)
	for i := 1; i <= 3; i++ {
		for _, ev := range []events.Event{f.event(p, i), f.event(e, i)} {
			seqs = append(seqs, f.mustAppend(nil, ev))
			all = append(all, ev)
		}
	}
	tests := []struct {
		name string
		from uint64
		want []events.Event
	}{
		{"from the middle", seqs[3], all[3:]},
		{"from the last", seqs[5], all[5:]},
		{"past the end", seqs[5] + 1, nil},
	}
	for _, tt := range tests {
		var got []events.Event
		err := f.s.Replay(f.ctx, tt.from, func(e events.Event) error {
			got = append(got, e)
			return nil
		})
		if err != nil {
			f.t.Fatalf("%s: Replay: %v", tt.name, err)
		}
		f.wantIDs(tt.name, got, tt.want)
		for i, ev := range got {
			f.sameEvent(ev, tt.want[i], seqs[len(seqs)-len(tt.want)+i])
		}
	}
	// From 0 and from 1 both mean the whole log.
	for _, from := range []uint64{0, 1} {
		n := 0
		var prev uint64
		if err := f.s.Replay(f.ctx, from, func(e events.Event) error {
			if e.Sequence <= prev {
				return errors.New("replay out of order")
			}
			prev, n = e.Sequence, n+1
			return nil
		}); err != nil {
			f.t.Fatalf("Replay(%d): %v", from, err)
		}
		if prev != seqs[5] || n < len(all) {
			f.t.Errorf("Replay(%d): %d events ending at %d, want at least %d ending at %d", from, n, prev, len(all), seqs[5])
		}
	}
}

// testReplayBounded appends while a replay runs: the replay ends at the last
// event stored when it was called.
func testReplayBounded(f *fixture) {
	agg := f.proposal()
	evs := f.events(agg, 3)
	start := f.mustAppend(nil, evs[0])
	f.mustAppend(nil, evs[1:]...)
	late := f.event(agg, 4)
	var got []events.Event
	err := f.s.Replay(f.ctx, start, func(e events.Event) error {
		if len(got) == 0 {
			f.mustAppend(nil, late)
		}
		got = append(got, e)
		return nil
	})
	if err != nil {
		f.t.Fatalf("Replay: %v", err)
	}
	f.wantIDs("replay while appending", got, evs)
	f.wantIDs("aggregate", f.load(agg, 0), append(evs, late))
}

func testReplayCallbackError(f *fixture) {
	agg := f.proposal()
	last := f.mustAppend(nil, f.events(agg, 3)...)
	stop := errors.New("stop here")
	n := 0
	err := f.s.Replay(f.ctx, last-2, func(events.Event) error {
		n++
		if n == 2 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) {
		f.t.Fatalf("Replay error = %v, want the callback's error", err)
	}
	if n != 2 {
		f.t.Errorf("callback called %d times after returning an error at 2", n)
	}
}
