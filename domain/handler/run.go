package handler

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// run executes a command: it decides on the states an attempt loads and
// appends the decision, and decides again, in the modes below, when the
// cache, the follower's fast path or the chain did not hold, or another
// writer got there first.
func (h *Handler) run(ctx context.Context, c command) (Result, error) {
	writes := slices.Clone(c.writes)
	slices.SortFunc(writes, func(a, b events.Aggregate) int { return strings.Compare(a.String(), b.String()) })
	writes = slices.Compact(writes)
	// Alone in this handler, a command may take the follower's fast path
	// (follow.go); with others in flight their writes would make it miss,
	// unless the appends are chained (chain.go).
	fast := h.inflight.Add(1) == 1 || h.chains()
	defer h.inflight.Add(-1)
	for attempt := 0; ; attempt++ {
		// The first attempt may append as a link of the chain (chain.go),
		// and try again in a new chain when refused, a few times; then, and
		// after a conflict, the command is decided on the stored state and
		// appended on its own.
		mode := asLink(fast)
		if attempt > 0 {
			mode = onStored
		}
		res, err := h.attempt(ctx, c, writes, mode)
		for miss := 0; errors.Is(err, errChainBroken) && miss < chainRetries; miss++ {
			res, err = h.attempt(ctx, c, writes, asLink(fast))
		}
		if errors.Is(err, errFastMissed) || errors.Is(err, errChainBroken) {
			res, err = h.attempt(ctx, c, writes, onCached)
		}
		if errors.Is(err, errDecideAgain) {
			res, err = h.attempt(ctx, c, writes, onStored)
		}
		if !errors.Is(err, events.ErrConflict) || attempt >= h.maxRetries {
			return res, err
		}
		// Another writer got there first. Retrying at once mostly works,
		// but writers on other replicas hammering the same aggregate collide
		// again in lockstep: wait a random 0–2ᵃ ms (at most 63 ms in all).
		select {
		case <-time.After(rand.N(time.Duration(2<<attempt) * time.Millisecond)):
		case <-ctx.Done():
			return Result{}, ctx.Err()
		}
	}
}

// attemptMode says what an attempt decides on and how it appends.
type attemptMode struct {
	refresh bool // reload every written state from the store first
	fast    bool // may decide on the follower's states (follow.go)
	chained bool // may append as a link of the chain (chain.go)
}

var (
	// onCached decides on the cached states and appends on its own.
	onCached = attemptMode{}
	// onStored reloads the states from the store: after a conflict, or
	// when a refusal on cached states must be checked.
	onStored = attemptMode{refresh: true}
)

// asLink decides on the cached states (on the follower's when fast) and
// appends as a link of the chain.
func asLink(fast bool) attemptMode { return attemptMode{fast: fast, chained: true} }

func (h *Handler) attempt(ctx context.Context, c command, writes []events.Aggregate, mode attemptMode) (Result, error) {
	// Read-only aggregates are read before any write lock is taken: waiting
	// for a read while holding a write lock deadlocks against a command that
	// writes what we read and reads what we write (Publish writes the edition
	// and proposals; a vote writes a proposal and reads the edition). A read
	// is an unguarded snapshot either way.
	st, at, err := h.readAll(ctx, c.reads, writes, mode.fast)
	if err != nil {
		return Result{}, err
	}
	locked := make([]*slot, 0, len(writes))
	for _, a := range writes {
		e := h.cache.get(a)
		e.mu.Lock()
		locked = append(locked, e)
	}
	defer func() {
		for _, e := range locked {
			e.mu.Unlock()
		}
	}()
	cached := false // some state was taken from the cache as it was
	reload := make([]bool, len(writes))
	for i := range writes {
		reload[i] = mode.refresh || !locked[i].loaded || locked[i].behind
		cached = cached || !reload[i]
		st[writes[i]] = locked[i]
	}
	// Each entry is locked by us alone: they load side by side, or, when
	// an edition reloads thousands, in one pass over the log.
	if err := h.reloadMany(ctx, writes, locked, reload); err != nil {
		return Result{}, err
	}
	if err := eachParallel(ctx, len(writes), func(i int) error {
		return h.refresh(ctx, locked[i], writes[i], reload[i])
	}); err != nil {
		return Result{}, err
	}
	evs, done, err := h.decision(ctx, c, st, writes, locked, h.now().UTC())
	if done != nil {
		return *done, err
	}
	if (err != nil || len(evs) == 0) && at.seq > 0 {
		// Followed states not yet shown current: a refusal or a no-op is
		// decided again after the follower's check.
		return Result{}, errFastMissed
	}
	if (err != nil || len(evs) == 0) && cached {
		// Another replica may have written the aggregate since it was
		// cached. The append's expectation catches that for a decision
		// that writes; a refusal or a no-op never gets that far, so it is
		// decided again on the stored state before it is believed.
		return Result{}, errDecideAgain
	}
	if err != nil || len(evs) == 0 {
		return Result{}, err
	}
	var expect []events.Expectation
	seen := map[events.Aggregate]bool{}
	for _, ev := range evs {
		a := ev.Aggregate()
		if !seen[a] {
			seen[a] = true
			e, ok := st[a]
			if !ok || !slices.Contains(writes, a) {
				return Result{}, fmt.Errorf("handler: decision wrote %s, which the command did not lock", a)
			}
			expect = append(expect, events.Expectation{Aggregate: a, LastSeq: e.seq})
		}
	}
	var last uint64
	var retry bool
	if mode.chained && h.chains() && len(evs) == 1 {
		last, retry, err = h.appendChained(ctx, expect, evs[0], at)
	} else {
		if at.seq > 0 {
			// The follower's fast path: the decision holds only if nothing
			// at all was stored after the position its states are current at.
			expect = append(expect, events.Expectation{LastSeq: at.seq, Stream: true})
		}
		last, retry, err = h.append(ctx, expect, evs)
	}
	if err != nil {
		if errors.Is(err, errFastMissed) || errors.Is(err, errChainBroken) {
			return Result{}, err
		}
		if errors.Is(err, events.ErrConflict) {
			if at.seq > 0 {
				return Result{}, errFastMissed
			}
			return Result{}, err
		}
		// The outcome is unknown (the ack may have been lost): the next
		// command reads what came after the cached state first, and sees the
		// event if it landed.
		for _, e := range locked {
			e.behind = true
		}
		return Result{}, err
	}
	// The events of one append are stored contiguously, so the i-th event has
	// sequence last-(n-1-i).
	ids := make([]string, len(evs))
	for i := range evs {
		evs[i].Sequence = last - uint64(len(evs)-1-i)
		ids[i] = evs[i].ID
	}
	if !retry {
		h.follow.Load().stored(last, evs)
	}
	if c.commandID == "" && len(c.steps) == 0 || !retry {
		// Fresh random ids cannot be stored already, and a store that tells
		// retries apart stored ours now: the append was ours.
		for i := range evs {
			st[evs[i].Aggregate()].apply(evs[i])
		}
		return Result{Sequence: last, EventIDs: ids}, nil
	}
	if len(c.steps) > 0 {
		// Stored whole, now or by an earlier try (an atomic batch is all or
		// nothing): the next command reads what the store holds.
		for _, e := range locked {
			e.behind = true
		}
		return Result{Sequence: last, EventIDs: ids}, nil
	}
	// A client-chosen id may have been stored already by another replica,
	// after this cache was loaded; the store then reports the first run as
	// success. Applying our own decision would skip the events stored in
	// between, so read back what the store holds instead.
	otherFirst := false
	for i, a := range writes {
		if !seen[a] {
			continue
		}
		before := locked[i].seq
		stored, err := h.store.Load(ctx, a, before)
		if err != nil {
			locked[i].behind = true // the next command reads the rest first
			continue
		}
		for _, ev := range stored {
			locked[i].apply(ev)
		}
		ours := slices.IndexFunc(evs, func(ev events.Event) bool { return ev.Aggregate() == a })
		if len(stored) > 0 && stored[0].ID != evs[ours].ID {
			otherFirst = true // other events came first: our expectation cannot have held
		}
	}
	if otherFirst {
		res, _, err := h.replayed(ctx, c.commandID, writes, locked)
		return res, err
	}
	return Result{Sequence: last, EventIDs: ids}, nil
}

// errFastMissed: the follower's fast path did not hold (something else was
// stored meanwhile, or the decision refused); run decides again after the
// follower's check, at once.
var errFastMissed = errors.New("handler: decide again after the follower's check")

// errDecideAgain: attempt refused or found nothing to do on a cached state;
// run decides again on the stored one.
var errDecideAgain = errors.New("handler: decide again on the stored state")

// decision decides c on the loaded states and returns its events, or,
// when c was carried out before (its command id, or every step's, is
// stored), done: that run's result.
func (h *Handler) decision(ctx context.Context, c command, st states, writes []events.Aggregate, locked []*slot, now time.Time) ([]events.Event, *Result, error) {
	if len(c.steps) > 0 {
		evs, replayed, err := decideSteps(c, st, locked, now)
		if replayed {
			res := Result{Replayed: true}
			for _, e := range locked {
				res.Sequence = max(res.Sequence, e.seq)
			}
			return nil, &res, nil
		}
		return evs, nil, err
	}
	if c.commandID != "" {
		if res, ok, err := h.replayed(ctx, c.commandID, writes, locked); ok || err != nil {
			return nil, &res, err
		}
	}
	changes, err := c.decide(st)
	if err != nil || len(changes) == 0 {
		return nil, nil, err
	}
	evs, err := newEvents(now, c.actor, c.commandID, changes)
	return evs, nil, err
}

// newEvents turns a command's changes into its events: the first takes the
// command's id (a fresh one without), the others ids derived from it.
func newEvents(now time.Time, actor domain.Actor, commandID string, changes []domain.Change) ([]events.Event, error) {
	first := commandID
	if first == "" {
		first = events.NewID(now)
	}
	evs := make([]events.Event, 0, len(changes))
	for i, ch := range changes {
		evID := first
		if i > 0 {
			evID = deriveID(first, i)
		}
		ev, err := events.New(evID, now, actor.Name, ch.Aggregate.ID, ch.Data)
		if err != nil {
			return nil, err
		}
		if ev.Kind() != ch.Aggregate.Kind {
			return nil, fmt.Errorf("handler: %s event for a %s aggregate", ev.Type, ch.Aggregate.Kind)
		}
		ev.CorrelationID, ev.CausationID = first, commandID
		ev.AuthVia = actor.Via.String()
		evs = append(evs, ev)
	}
	return evs, nil
}

// decideSteps decides a command's steps in order, each on the states as
// the ones before it left them, and returns their events. A step whose
// command id is stored already is passed over; replayed reports that every
// step was. The states in st and locked are left as they are.
func decideSteps(c command, st states, locked []*slot, now time.Time) (evs []events.Event, replayed bool, err error) {
	stored := func(id string) bool {
		return slices.ContainsFunc(locked, func(e *slot) bool { _, ok := e.ids[id]; return ok })
	}
	local := maps.Clone(st)
	replayed = true
	for _, s := range c.steps {
		if s.commandID != "" && stored(s.commandID) {
			continue
		}
		replayed = false
		changes, err := s.decide(local)
		if err != nil {
			return nil, false, err
		}
		stepEvs, err := newEvents(now, c.actor, s.commandID, changes)
		if err != nil {
			return nil, false, err
		}
		for _, ev := range stepEvs {
			a := ev.Aggregate()
			var prev any
			if e := local[a]; e != nil {
				prev = e.state
			}
			local[a] = &slot{state: domain.Evolved(prev, ev), loaded: true}
		}
		evs = append(evs, stepEvs...)
	}
	return evs, replayed, nil
}
