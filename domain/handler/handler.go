package handler

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"time"

	"github.com/crossrank/crossrank/domain"
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
	previewed  previewed                // what the latest edition previews pinned (edition_previewed.go)
	standings  domain.StandingMemo      // the rank-impact previews' standings (rank_impact.go)
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

// New returns a handler over store. now may be nil (time.Now).
func New(store Store, now func() time.Time, opts ...Option) *Handler {
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
	actor     domain.Actor
	commandID string // client-chosen id of the first event: makes a retry idempotent
	writes    []events.Aggregate
	reads     []events.Aggregate
	decide    func(s states) ([]domain.Change, error)
	// steps, when set, are the command instead of decide: commands carried
	// out in order, each deciding on what the ones before it decided, and
	// stored together or not at all.
	steps []step
}

// step is one of a command's steps: a command of its own, with its id.
type step struct {
	commandID string
	decide    func(s states) ([]domain.Change, error)
}

// states gives a decision the loaded aggregates.
type states map[events.Aggregate]*slot

func (s states) ranking(slug string) *domain.Ranking {
	return stateOr(s, domain.RankingID(slug), &domain.Ranking{})
}

func (s states) edition(slug string) *domain.Edition {
	return stateOr(s, domain.EditionID(slug), &domain.Edition{Ranking: slug, Entries: map[string]*domain.PublishedEntry{}})
}

func (s states) proposal(id string) *domain.Proposal {
	return stateOr(s, domain.ProposalID(id), &domain.Proposal{})
}

func (s states) entry(r, e string) *domain.Entry {
	return stateOr(s, domain.EntryID(r, e), &domain.Entry{})
}

func (s states) user(name string) *domain.User {
	return stateOr(s, domain.UserID(name), &domain.User{})
}

func stateOr[T any](s states, a events.Aggregate, zero *T) *T {
	if e := s[a]; e != nil && e.state != nil {
		if v, ok := e.state.(*T); ok {
			return v
		}
	}
	return zero
}

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
