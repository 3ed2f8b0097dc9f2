package handler

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// loadParallel bounds how many aggregates one command loads at once. An
// edition reads and writes one aggregate per proposal it releases and per
// entry it makes public — 20,000 for a first edition of 10,000 entries —
// and one load after another would make it wait for 20,000 round trips.
const loadParallel = 16

// eachParallel calls f for 0 ≤ i < n on up to loadParallel goroutines and
// returns the error of the lowest i that failed; after a failure the
// calls not yet started are skipped.
func eachParallel(ctx context.Context, n int, f func(i int) error) error {
	if n <= 1 {
		if n == 1 {
			return f(0)
		}
		return nil
	}
	errs := make([]error, n)
	var next atomic.Int64
	var failed atomic.Bool
	var wg sync.WaitGroup
	for range min(loadParallel, n) {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= n || failed.Load() || ctx.Err() != nil {
					return
				}
				if errs[i] = f(i); errs[i] != nil {
					failed.Store(true)
				}
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return ctx.Err()
}

// loadManyAfter is how many aggregates not yet in the cache make preload
// read the log once (events.Store.LoadMany) instead of loading each.
const loadManyAfter = 256

// preload brings aggs into the cache, when at least loadManyAfter of them
// are missing from it, with one pass over the log; otherwise it leaves
// them to be loaded one by one as they are read. Each entry loaded
// records the sequence the pass read up to, so its next refresh asks only
// for what came after.
func (h *Handler) preload(ctx context.Context, aggs []events.Aggregate) error {
	var missing []events.Aggregate
	for _, a := range aggs {
		if !h.cache.loaded(a) {
			missing = append(missing, a)
		}
	}
	if len(missing) < loadManyAfter {
		return nil
	}
	loaded, last, err := h.store.LoadMany(ctx, missing)
	if err != nil {
		return err
	}
	for _, a := range missing {
		e := h.cache.get(a)
		e.mu.Lock()
		if !e.loaded { // a command may have loaded it meanwhile
			e.state, e.seq, e.ids = nil, 0, nil
			for _, ev := range loaded[a] {
				e.apply(ev)
			}
			e.loaded, e.behind, e.checked = true, false, last
		}
		e.mu.Unlock()
	}
	return nil
}

// preloadChosen preloads the proposals ids of an edition and then the
// entries the new-entry ones among them create.
func (h *Handler) preloadChosen(ctx context.Context, ranking string, ids []string) error {
	aggs := make([]events.Aggregate, 0, len(ids))
	for _, id := range ids {
		if events.ValidID(id) {
			aggs = append(aggs, domain.ProposalID(id))
		}
	}
	if err := h.preload(ctx, aggs); err != nil {
		return err
	}
	aggs = aggs[:0]
	for _, id := range ids {
		if !events.ValidID(id) || !h.cache.loaded(domain.ProposalID(id)) {
			continue
		}
		e := h.cache.get(domain.ProposalID(id))
		e.mu.Lock()
		p, _ := e.state.(*domain.Proposal)
		e.mu.Unlock()
		if p.Exists() && p.NewEntry && events.ValidID(p.Entry) {
			aggs = append(aggs, domain.EntryID(ranking, p.Entry))
		}
	}
	return h.preload(ctx, aggs)
}
