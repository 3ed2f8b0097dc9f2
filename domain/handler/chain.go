package handler

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/crossrank/crossrank/events"
)

// The follower's fast path (follow.go) when several commands run at once.
//
// Alone, a command decides on the followed states kept at position cur and
// its append expects the stream's last sequence to be cur: stored only if
// nothing at all was stored since. With others in flight that expectation
// fails as soon as one of them lands first, and each command pays the
// follower's check instead: a round trip that, with 32 commands at once,
// waits about a third of what the append waits (BENCHMARKS.md).
//
// A chain keeps the fast path for them. The first command in flight expects
// the stream's last sequence as alone; each one sent while it is in flight
// expects the stream's last event to be the one sent just before it
// (events.Expectation.After). The appends go on the wire in chain order
// (the store's AppendSent, under the chain's lock), so the server stores
// the chain whole — base, then each link right after the previous one — or
// refuses it from the first link that fails, and every link after that.
// A link is stored only if everything between its states' position and
// itself is the chain's own events. Those are no ranking or edition events
// (a link that writes one closes the chain to newcomers), so the followed
// states a link decided on are current when it is stored: exactly as safe
// as the check.
//
// A command on the fast path joins only if it decided on the states the
// chain did; otherwise it takes the check. Commands that need no guard
// (they read no followed state, or read it through the check) are links
// too, so that their appends do not break the chain. A refused link waits
// until the broken chain's links are answered and tries a new chain, twice,
// then takes the check and appends on its own. What still breaks a chain:
// another process's append, or an atomic batch (two events or more cannot
// carry the expected last event id), whose command waits for no chain. A
// command alone appends synchronously, as without a chain, since the
// asynchronous publish's hand-off costs a lone command 5-10 %.

// chain is the handler's links in flight.
type chain struct {
	mu       sync.Mutex
	links    int           // sent, not yet answered
	drained  chan struct{} // closed when links is back to 0
	version  uint64        // the follower's version the links decided on
	tail     string        // id of the last link sent
	followed bool          // a link writes a followed aggregate: no newcomers
	broken   bool          // a link failed: those after it will too
}

// chains reports whether the handler's store can order appends on the
// wire (jetstream.Store on a single server).
func (h *Handler) chains() bool { return h.store.Chains() }

// appendChained appends ev as the chain's next link. A command on the fast
// path (at.seq > 0) decided on the followed states at; errFastMissed when
// it cannot join (decide again after the check).
//
// The first link expects the stream's last sequence to be the follower's
// position now, where the kept states are current, if they are still the
// states the command read (no followed event applied since: same version).
// A later link on the fast path joins if it read those same states, which
// the chain's events, none of them followed, have left current.
//
// Any other command (at.seq == 0: it read no followed state, or read it
// after the check) joins too: it is decided on the state stored when it
// started and needs no guard of its own, but an append outside the chain
// would break it. As a link it goes right after the one before it, like
// the rest.
func (h *Handler) appendChained(ctx context.Context, expect []events.Expectation, ev events.Event, at fastAt) (uint64, bool, error) {
	f := h.follow.Load()
	if f == nil {
		if at.seq > 0 {
			return 0, false, errFastMissed
		}
		return h.append(ctx, expect, []events.Event{ev})
	}
	p := &h.chain
	p.mu.Lock()
	// A broken chain's links in flight will all fail: wait for them to be
	// answered, then start a new chain.
	for p.links > 0 && p.broken {
		drained := p.drained
		p.mu.Unlock()
		select {
		case <-drained:
		case <-ctx.Done():
			return 0, false, ctx.Err()
		}
		p.mu.Lock()
	}
	unlock := sync.OnceFunc(p.mu.Unlock)
	defer unlock()
	var guard events.Expectation
	var version uint64 // a first link's: the kept states the chain decides on
	switch {
	case p.links == 0:
		// The first link: the stream's last sequence where the kept states
		// are current now, if they are the states a fast-path command read.
		cur, v := f.position()
		if at.seq > 0 && v != at.version {
			return 0, false, errFastMissed
		}
		guard, version = events.Expectation{Stream: true, LastSeq: cur}, v
		if h.inflight.Load() == 1 && !h.alwaysChain {
			// Alone: a plain append, whose answer comes back without the
			// asynchronous publish's hand-off (sequential commands were
			// 5-10 % slower with it), under the lock so that no link goes
			// out meanwhile. Its conflicts are the fast path's misses or
			// the aggregate's, as without a chain; a command that read no
			// followed state needs no guard.
			if at.seq > 0 {
				expect = append(slices.Clip(expect), guard)
			}
			return h.append(ctx, expect, []events.Event{ev})
		}
	case at.seq > 0 && (p.followed || at.version != p.version):
		return 0, false, errFastMissed
	default:
		guard = events.Expectation{Stream: true, After: p.tail}
	}
	linked := false
	sent := func() {
		if p.links == 0 {
			p.drained = make(chan struct{})
			p.version = version
		}
		p.links++
		p.tail = ev.ID
		p.followed = p.followed || slices.Contains(followedKinds, ev.Kind())
		linked = true
		unlock()
	}
	last, retry, err := h.store.AppendSent(ctx, append(slices.Clip(expect), guard), sent, ev)
	unlock()
	if linked && h.hooks.Chained != nil {
		h.hooks.Chained()
	}
	if linked {
		p.mu.Lock()
		if err == nil && !retry && !p.followed {
			// Stored: the chain is whole from its first link's position to
			// this link and holds no followed event, so the kept states are
			// current here.
			f.advance(last)
		}
		p.links--
		// A retry's duplicate was stored before, elsewhere: the links
		// expecting it as the stream's last will miss.
		p.broken = p.broken || err != nil || retry
		if p.links == 0 {
			p.tail, p.followed, p.broken = "", false, false
			close(p.drained)
		}
		p.mu.Unlock()
	}
	if errors.Is(err, events.ErrConflict) {
		// Most likely a link before this one failed; try a new chain.
		return 0, false, fmt.Errorf("%w: %w", errChainBroken, err)
	}
	return last, retry, err
}

// errChainBroken: a chained append was refused, most likely because a link
// before it failed (which fails every link after it). The command is
// decided again on the fast path, in a new chain, a few times
// (chainRetries) before it takes the check: a write by another process
// keeps failing it.
var errChainBroken = errors.New("handler: chained append refused")

const chainRetries = 2

// position returns the position the kept states are current at, and their
// version (how many followed events were applied to them).
func (f *follower) position() (uint64, uint64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.cur, f.version
}

// advance records that the kept states are current at last: nothing stored
// after cur up to last is a followed event (the caller's chain).
func (f *follower) advance(last uint64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.cur = max(f.cur, last)
}
