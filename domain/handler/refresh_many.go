package handler

import (
	"context"

	"github.com/crossrank/crossrank/events"
)

// refreshManyReach bounds the pass refreshMany makes: it decodes every
// event after the oldest position, and reads no more than this many per
// aggregate it refreshes.
const refreshManyReach = 64

// refreshMany brings loaded cached states up to date with one pass over
// the log, from the oldest position among them, when at least
// loadManyAfter of them need it; it reports which it refreshed, and
// leaves the rest (too few, or not loaded) to refresh. One request per
// aggregate is the alternative: each makes the server load the block its
// last event is in, and an edition's thousands of them keep every block
// of the log in the server's cache (8 MiB each, for seconds) while the
// edition is decided and appended.
//
// es[i] is the cache entry of aggs[i]; held tells whether the caller holds
// their locks (a command's writes), else each is locked in turn.
func (h *Handler) refreshMany(ctx context.Context, aggs []events.Aggregate, es []*slot, held bool) ([]bool, error) {
	done := make([]bool, len(aggs))
	lock := func(e *slot) func() {
		if held {
			return func() {}
		}
		e.mu.Lock()
		return e.mu.Unlock
	}
	index := make(map[events.Aggregate]int, len(aggs))
	var from uint64
	for i, e := range es {
		unlock := lock(e)
		if e.loaded {
			at := max(e.seq, e.checked) + 1
			if len(index) == 0 || at < from {
				from = at
			}
			index[aggs[i]] = i
		}
		unlock()
	}
	if len(index) < loadManyAfter {
		return done, nil
	}
	// Every event stored up to last is delivered by the replay, which
	// reads at least that far.
	last, err := h.store.LastSequence(ctx)
	if err != nil {
		return done, err
	}
	if last >= from && last-from >= uint64(refreshManyReach*len(index)) {
		return done, nil // states from long ago: a request each reads less
	}
	found := map[int][]events.Event{}
	if last >= from {
		if err := h.store.Replay(ctx, from, func(ev events.Event) error {
			if i, ok := index[ev.Aggregate()]; ok {
				found[i] = append(found[i], ev)
			}
			return nil
		}); err != nil {
			return done, err
		}
	}
	for _, i := range index {
		e := es[i]
		unlock := lock(e)
		if e.loaded { // a command may have moved it on meanwhile: skip what it applied
			for _, ev := range found[i] {
				if ev.Sequence > e.seq {
					e.apply(ev)
				}
			}
			e.checked, e.behind, done[i] = max(e.checked, last), false, true
		}
		unlock()
	}
	return done, nil
}

// readMany sets out[i] to the state of aggs[i] for every i: from one pass
// over the log when enough of them are cached (refreshMany), else from
// one(i), the aggregate's own read, which also handles what the pass
// leaves out (a state not loaded or of another type, an invalid id).
// A failed pass leaves every aggregate to its own read.
func readMany[T any](ctx context.Context, h *Handler, aggs []events.Aggregate, out []T, one func(i int) (T, error)) error {
	es := make([]*slot, len(aggs))
	valid := make([]events.Aggregate, 0, len(aggs))
	at := make([]int, 0, len(aggs))
	for i, a := range aggs {
		if events.ValidID(a.ID) {
			valid = append(valid, a)
			at = append(at, i)
		}
	}
	for j, a := range valid {
		es[j] = h.cache.get(a)
	}
	fresh := make([]bool, len(aggs))
	if done, err := h.refreshMany(ctx, valid, es[:len(valid)], false); err == nil {
		for j, ok := range done {
			if !ok {
				continue
			}
			e := es[j]
			e.mu.Lock()
			if v, isT := e.state.(T); isT {
				out[at[j]], fresh[at[j]] = v, true
			}
			e.mu.Unlock()
		}
	}
	return eachParallel(ctx, len(aggs), func(i int) (err error) {
		if !fresh[i] {
			out[i], err = one(i)
		}
		return err
	})
}

// reloadMany refreshes the loaded entries of a command's writes that
// reload marks in one pass over the log (refreshMany), and clears their
// marks; the caller holds every entry's lock.
func (h *Handler) reloadMany(ctx context.Context, writes []events.Aggregate, locked []*slot, reload []bool) error {
	var aggs []events.Aggregate
	var es []*slot
	var at []int
	for i := range writes {
		if reload[i] && locked[i].loaded {
			aggs, es, at = append(aggs, writes[i]), append(es, locked[i]), append(at, i)
		}
	}
	if len(aggs) < loadManyAfter {
		return nil
	}
	done, err := h.refreshMany(ctx, aggs, es, true)
	if err != nil {
		return err
	}
	for j, ok := range done {
		if ok {
			reload[at[j]] = false
		}
	}
	return nil
}
