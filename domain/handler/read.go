package handler

import (
	"context"
	"errors"
	"slices"
	"sync"

	"github.com/crossrank/crossrank/events"
)

// How a command reads the aggregates it decides on: those it only reads
// (readAll, from the follower where one runs) and one aggregate's state
// brought up to date from the store (refresh).

// readAll refreshes the aggregates a command only reads (those it also
// writes are loaded under their lock) and returns snapshots of them. The
// reads go to the store at once, so a command waits for one round trip
// rather than one per aggregate; each holds only its own entry's lock.
// Rankings and editions come from the follower when one runs (follow.go):
// one check per ranking instead of a read per aggregate.
//
// With fast set, when every aggregate read is followed and kept, it returns
// the kept states without the follower's check and guard, the sequence
// they are current at, for the append to expect as the stream's last.
func (h *Handler) readAll(ctx context.Context, reads, writes []events.Aggregate, fast bool) (states, fastAt, error) {
	var todo []events.Aggregate
	for _, a := range reads {
		if !slices.Contains(todo, a) && !slices.Contains(writes, a) {
			todo = append(todo, a)
		}
	}
	f := h.follow.Load()
	if fast && f != nil && len(todo) > 0 {
		if snaps, at, ok := f.fast(todo); ok {
			st := states{}
			for i, a := range todo {
				st[a] = snaps[i]
			}
			return st, at, nil
		}
	}
	// Each group is read at once into snaps: one aggregate, or the followed
	// aggregates of one ranking, which share the follower's check.
	var groups [][]events.Aggregate
	var followedSlugs []string
	for _, a := range todo {
		if f != nil && slices.Contains(followedKinds, a.Kind) {
			if i := slices.Index(followedSlugs, a.ID); i >= 0 {
				groups[i] = append(groups[i], a)
				continue
			}
			followedSlugs = append(followedSlugs, a.ID)
		} else {
			followedSlugs = append(followedSlugs, "")
		}
		groups = append(groups, []events.Aggregate{a})
	}
	snaps := make([][]*slot, len(groups))
	errs := make([]error, len(groups))
	direct := func(a events.Aggregate) (*slot, error) {
		e := h.cache.get(a)
		e.mu.Lock()
		defer e.mu.Unlock()
		err := h.refresh(ctx, e, a, true)
		return &slot{state: e.state, seq: e.seq, loaded: true}, err
	}
	read := func(i int) {
		if slug := followedSlugs[i]; slug != "" {
			snaps[i], errs[i] = f.read(ctx, slug, groups[i])
			if !errors.Is(errs[i], errNotFollowed) {
				return
			}
		}
		snaps[i], errs[i] = make([]*slot, len(groups[i])), nil
		for j, a := range groups[i] {
			if snaps[i][j], errs[i] = direct(a); errs[i] != nil {
				return
			}
		}
	}
	var wg sync.WaitGroup
	for i := 1; i < len(groups); i++ {
		wg.Go(func() { read(i) })
	}
	if len(groups) > 0 {
		read(0)
	}
	wg.Wait()
	st := states{}
	for i, g := range groups {
		if errs[i] != nil {
			return nil, fastAt{}, errs[i]
		}
		for j, a := range g {
			st[a] = snaps[i][j]
		}
	}
	return st, fastAt{}, nil
}

func (h *Handler) refresh(ctx context.Context, e *slot, a events.Aggregate, reload bool) error {
	if !reload && e.loaded && !e.behind {
		return nil
	}
	after := max(e.seq, e.checked)
	if !e.loaded {
		e.state, e.seq, e.ids, e.checked, after = nil, 0, nil, 0, 0
	}
	evs, err := h.store.Load(ctx, a, after)
	if err != nil {
		// A loaded state stays what it was, the aggregate's events up to
		// seq; the next refresh reads on from there.
		e.behind = e.loaded
		return err
	}
	for _, ev := range evs {
		e.apply(ev)
	}
	e.loaded, e.behind = true, false
	return nil
}
