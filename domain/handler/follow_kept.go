package handler

import (
	"context"

	"github.com/crossrank/crossrank/events"
)

// The follower's kept states: loaded from the store the first time a
// command asks for one, then kept current by the stream (follow.go).

// kept returns the state kept for a, if it has been loaded.
func (f *follower) kept(a events.Aggregate) (any, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if k := f.loadedLocked(a); k != nil {
		return k.e.state, true
	}
	return nil, false
}

// loadedLocked returns a's kept state once its first load has succeeded,
// else nil. f.mu must be held.
func (f *follower) loadedLocked(a events.Aggregate) *followed {
	k := f.states[a]
	if k == nil {
		return nil
	}
	select {
	case <-k.ready:
	default:
		return nil
	}
	if k.err != nil {
		return nil
	}
	return k
}

// snapshots returns the kept states of aggs, loading each from the store
// the first time it is asked for.
func (f *follower) snapshots(ctx context.Context, aggs []events.Aggregate) ([]*slot, error) {
	out := make([]*slot, len(aggs))
	for i, a := range aggs {
		f.mu.Lock()
		k := f.states[a]
		if k == nil {
			if len(f.states) >= maxFollowed {
				f.mu.Unlock()
				return nil, errNotFollowed
			}
			// Kept from now on: events delivered from here wait in
			// pending; the load below has every event stored before it,
			// and the two overlap rather than leave a gap.
			k = &followed{ready: make(chan struct{})}
			f.states[a] = k
			f.mu.Unlock()
			f.load(ctx, a, k)
		} else {
			f.mu.Unlock()
		}
		select {
		case <-k.ready:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		f.mu.Lock()
		if k.err != nil {
			f.mu.Unlock()
			return nil, k.err
		}
		out[i] = &slot{state: k.e.state, seq: k.e.seq, loaded: true}
		f.mu.Unlock()
	}
	return out, nil
}

// load reads a newly kept aggregate and applies what the stream delivered
// meanwhile. A failed load forgets the aggregate, so the next command tries
// again.
func (f *follower) load(ctx context.Context, a events.Aggregate, k *followed) {
	evs, err := f.src.Load(ctx, a, 0)
	f.mu.Lock()
	defer f.mu.Unlock()
	defer close(k.ready)
	if err != nil {
		k.err = err
		delete(f.states, a)
		return
	}
	for _, ev := range evs {
		k.e.apply(ev)
	}
	for _, ev := range k.pending {
		if ev.Sequence > k.e.seq {
			k.e.apply(ev)
		}
	}
	k.pending = nil
	k.e.loaded = true
}
