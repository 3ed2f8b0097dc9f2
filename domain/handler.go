package domain

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"time"

	"github.com/crossrank/crossrank/events"
)

// Result is what a command appended.
type Result struct {
	Sequence uint64   // stream sequence of the last event; wait for it to read your write
	EventIDs []string // ids of the appended events, in order
	Replayed bool     // the command had already been carried out (a retry)
}

// Handler loads aggregates, decides and appends through an events.Store.
// It keeps each aggregate's state and last sequence in a bounded cache; the
// append's per-aggregate expectation detects a stale cache, and the handler
// then reloads and decides again, a bounded number of times.
type Handler struct {
	store      Store
	hooks      Hooks
	now        func() time.Time
	cache      *stateCache
	maxRetries int
	follow     atomic.Pointer[follower] // keeps read-only aggregates current, when running
	inflight   atomic.Int64             // commands running
	chain      chain                    // the fast path's appends in flight (chain.go)
	// alwaysChain sends a command alone as a link too (tests that need a
	// link in flight: export_test.go).
	alwaysChain bool
}

// Store is what the handler needs of the event store, named here rather
// than found by type assertion, so that a wrapper cannot hide any of it
// (jetstream.Store is one).
type Store interface {
	events.Store
	// AppendReport appends as Append does, and reports whether the events
	// were found stored already by an earlier run (a retry).
	AppendReport(ctx context.Context, expect []events.Expectation, evs ...events.Event) (last uint64, retry bool, err error)
	// Chains reports whether AppendSent orders appends on the wire (a
	// single server; chain.go).
	Chains() bool
	// AppendSent appends ev as AppendReport does, calling sent once the
	// append is on the wire, before its answer.
	AppendSent(ctx context.Context, expect []events.Expectation, sent func(), ev events.Event) (last uint64, retry bool, err error)
}

// Hooks are told what the handler's appends met, for metrics. A nil hook
// is not called; hooks must be safe for concurrent use, and cheap.
type Hooks struct {
	// Conflict: an append refused because an aggregate it writes changed
	// since it was loaded (each retry counts). The fast path's misses,
	// where only the stream moved on, do not count.
	Conflict func()
	// Chained: an append sent as a link of a chain (chain.go).
	Chained func()
}

// Option configures a Handler.
type Option func(*Handler)

// WithHooks has the handler report to hooks.
func WithHooks(hooks Hooks) Option { return func(h *Handler) { h.hooks = hooks } }

// NewHandler returns a handler over store. now may be nil (time.Now).
func NewHandler(store Store, now func() time.Time, opts ...Option) *Handler {
	if now == nil {
		now = time.Now
	}
	h := &Handler{store: store, now: now, cache: newStateCache(50_000), maxRetries: 5}
	for _, o := range opts {
		o(h)
	}
	return h
}

// Now returns the handler's clock.
func (h *Handler) Now() time.Time { return h.now() }

// command describes one execution: the aggregates it writes (locked and
// guarded by expectations), those it only reads, and the decision.
type command struct {
	actor     Actor
	commandID string // client-chosen id of the first event: makes a retry idempotent
	writes    []events.Aggregate
	reads     []events.Aggregate
	decide    func(s states) ([]Change, error)
}

// states gives a decision the loaded aggregates.
type states map[events.Aggregate]*slot

func (s states) ranking(slug string) *Ranking { return stateOr(s, RankingID(slug), &Ranking{}) }
func (s states) edition(slug string) *Edition {
	return stateOr(s, EditionID(slug), &Edition{Ranking: slug, Entries: map[string]*PublishedEntry{}})
}
func (s states) proposal(id string) *Proposal { return stateOr(s, ProposalID(id), &Proposal{}) }
func (s states) entry(r, e string) *Entry     { return stateOr(s, EntryID(r, e), &Entry{}) }
func (s states) user(name string) *User       { return stateOr(s, UserID(name), &User{}) }

func stateOr[T any](s states, a events.Aggregate, zero *T) *T {
	if e := s[a]; e != nil && e.state != nil {
		if v, ok := e.state.(*T); ok {
			return v
		}
	}
	return zero
}

func (h *Handler) run(ctx context.Context, c command) (Result, error) {
	writes := slices.Clone(c.writes)
	slices.SortFunc(writes, func(a, b events.Aggregate) int { return compareStr(a.String(), b.String()) })
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
	if c.commandID != "" {
		if res, ok, err := h.replayed(ctx, c.commandID, writes, locked); ok || err != nil {
			return res, err
		}
	}
	changes, err := c.decide(st)
	if (err != nil || len(changes) == 0) && at.seq > 0 {
		// Followed states not yet shown current: a refusal or a no-op is
		// decided again after the follower's check.
		return Result{}, errFastMissed
	}
	if (err != nil || len(changes) == 0) && cached {
		// Another replica may have written the aggregate since it was
		// cached. The append's expectation catches that for a decision
		// that writes; a refusal or a no-op never gets that far, so it is
		// decided again on the stored state before it is believed.
		return Result{}, errDecideAgain
	}
	if err != nil || len(changes) == 0 {
		return Result{}, err
	}
	now := h.now().UTC()
	first := c.commandID
	if first == "" {
		first = events.NewID(now)
	}
	evs := make([]events.Event, 0, len(changes))
	var expect []events.Expectation
	seen := map[events.Aggregate]bool{}
	for i, ch := range changes {
		evID := first
		if i > 0 {
			evID = deriveID(first, i)
		}
		ev, err := events.New(evID, now, c.actor.Name, ch.Aggregate.ID, ch.Data)
		if err != nil {
			return Result{}, err
		}
		if ev.Kind() != ch.Aggregate.Kind {
			return Result{}, fmt.Errorf("domain: %s event for a %s aggregate", ev.Type, ch.Aggregate.Kind)
		}
		ev.CorrelationID, ev.CausationID = first, c.commandID
		ev.AuthVia = c.actor.Via.String()
		evs = append(evs, ev)
		if !seen[ch.Aggregate] {
			seen[ch.Aggregate] = true
			e, ok := st[ch.Aggregate]
			if !ok || !slices.Contains(writes, ch.Aggregate) {
				return Result{}, fmt.Errorf("domain: decision wrote %s, which the command did not lock", ch.Aggregate)
			}
			expect = append(expect, events.Expectation{Aggregate: ch.Aggregate, LastSeq: e.seq})
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
	if c.commandID == "" || !retry {
		// Fresh random ids cannot be stored already, and a store that tells
		// retries apart stored ours now: the append was ours.
		for i := range evs {
			st[evs[i].Aggregate()].apply(evs[i])
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
var errFastMissed = errors.New("domain: decide again after the follower's check")

// errDecideAgain: attempt refused or found nothing to do on a cached state;
// run decides again on the stored one.
var errDecideAgain = errors.New("domain: decide again on the stored state")

// append appends evs and reports whether they may have been stored before
// this call.
func (h *Handler) append(ctx context.Context, expect []events.Expectation, evs []events.Event) (uint64, bool, error) {
	last, retry, err := h.store.AppendReport(ctx, expect, evs...)
	if errors.Is(err, events.ErrConflict) && !guardsStream(expect) && h.hooks.Conflict != nil {
		h.hooks.Conflict()
	}
	return last, retry, err
}

// guardsStream reports an append on the follower's fast path, which
// expects nothing at all to have been stored since its states were
// current: another command's write makes it miss, and the handler decides
// again at once. That is not two writers on one aggregate; if the
// aggregate's own expectation fails too, the retry counts.
func guardsStream(expect []events.Expectation) bool {
	return slices.ContainsFunc(expect, func(x events.Expectation) bool { return x.Stream })
}

// replayed reports whether the command with commandID already ran: its
// first event is stored on an aggregate it writes. It then returns the first
// run's result, whose sequence is that of its last event (the command's
// events carry ids derived from the first one and are stored together).
func (h *Handler) replayed(ctx context.Context, commandID string, writes []events.Aggregate, locked []*slot) (Result, bool, error) {
	if !slices.ContainsFunc(locked, func(e *slot) bool { _, ok := e.ids[commandID]; return ok }) {
		return Result{}, false, nil
	}
	for i, e := range locked {
		if err := h.refresh(ctx, e, writes[i], true); err != nil {
			return Result{}, true, err
		}
	}
	res := Result{Replayed: true}
	for i := 0; ; i++ {
		evID := commandID
		if i > 0 {
			evID = deriveID(commandID, i)
		}
		j := slices.IndexFunc(locked, func(e *slot) bool { _, ok := e.ids[evID]; return ok })
		if j < 0 {
			return res, true, nil
		}
		res.EventIDs = append(res.EventIDs, evID)
		res.Sequence = max(res.Sequence, locked[j].ids[evID])
	}
}

// deriveID gives the i-th event of a command a stable id derived from the
// first one, keeping its UUIDv7 time prefix: a retried command yields the
// same ids for every event, so the store's deduplication sees the retry.
func deriveID(first string, i int) string {
	sum := sha256.Sum256(fmt.Appendf(nil, "%s/%d", first, i))
	h := hex.EncodeToString(sum[:])
	if len(first) < 36 {
		return h[:32]
	}
	// keep 8-4 of the time prefix, version 7, variant bits
	return first[:14] + "7" + h[0:3] + "-" + "8" + h[3:6] + "-" + h[6:18]
}
