package handler

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/crossrank/crossrank/events"
)

// Every command on a proposal reads its ranking and published edition, and
// before following the stream each read was a round trip to the store (two
// at once, ~120 µs of a ~400 µs command, measured in `crossrank bench`).
// Both aggregates change rarely — at an edition, a methodology change — so
// the handler keeps them current from the stream instead: one ordered
// consumer reads every event once, decodes only those of rankings and
// editions, and applies them to the states it has been asked for.
//
// The rule that keeps a decision exactly as safe as a fresh read: a command
// uses the followed state only after one round trip at its start (NextAfter)
// has shown that no event of that ranking or edition is stored beyond the
// follower's position. The follower has applied everything up to that
// position, so the state is the stored state as of the command's start —
// what the direct read gave — and the round trip is a single tiny get
// instead of one per aggregate, each returning the aggregate's last event.
// When the follower is behind (the ranking just changed), the command waits
// for it briefly, and reads the store directly as before if it does not
// catch up; when no follower runs (tests, the CLI's own handler), commands
// read directly.

// FollowSource is a store whose events a handler can follow
// (jetstream.Store).
type FollowSource interface {
	LastSequence(ctx context.Context) (uint64, error)
	Load(ctx context.Context, agg events.Aggregate, after uint64) ([]events.Event, error)
	Follow(ctx context.Context, from uint64, keep func(subject string) bool, fn func(seq uint64, e *events.Event) error) error
	NextAfter(ctx context.Context, after uint64, filter string) (uint64, error)
}

// followedKinds are the aggregates a follower keeps: those that every
// proposal command reads and few commands write.
var followedKinds = []events.Kind{events.KindRanking, events.KindEdition}

// followWait bounds how long a command waits for a follower that is behind
// before it reads the store directly.
const followWait = 50 * time.Millisecond

type follower struct {
	src FollowSource

	mu      sync.Mutex
	seen    uint64        // every event up to seen is applied to states
	cur     uint64        // and the states are current at cur >= seen (see stored)
	version uint64        // followed events applied: the kept states changed
	moved   chan struct{} // closed when seen moves on
	states  map[events.Aggregate]*followed
}

// followed is one kept aggregate. Until its first load is done (ready
// closed), events the stream delivers for it wait in pending.
type followed struct {
	e       slot // state and seq; replaced states are never mutated
	ready   chan struct{}
	pending []events.Event
	err     error
}

// maxFollowed bounds the kept aggregates (two per ranking); beyond it,
// commands read the store directly.
const maxFollowed = 10_000

// Follow keeps the rankings and editions that commands read current from
// the stream, until ctx ends (it returns ctx.Err() then). Commands use the
// followed states from the moment it has started; before, and if it stops,
// they read the store directly.
func (h *Handler) Follow(ctx context.Context, src FollowSource) error {
	last, err := src.LastSequence(ctx)
	if err != nil {
		return err
	}
	f := &follower{src: src, seen: last, cur: last, moved: make(chan struct{}), states: map[events.Aggregate]*followed{}}
	h.follow.Store(f)
	defer h.follow.CompareAndSwap(f, nil)
	keep := func(subject string) bool {
		for _, k := range followedKinds {
			if strings.HasPrefix(subject, events.SubjectPrefix+string(k)+".") {
				return true
			}
		}
		return false
	}
	return src.Follow(ctx, last+1, keep, f.apply)
}

// Following reports whether commands read followed states (Follow runs).
func (h *Handler) Following() bool { return h.follow.Load() != nil }

func (f *follower) apply(seq uint64, ev *events.Event) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if ev != nil {
		f.version++
		if k := f.states[ev.Aggregate()]; k != nil {
			select {
			case <-k.ready:
				if seq > k.e.seq {
					k.e.apply(*ev)
				}
			default:
				k.pending = append(k.pending, *ev)
			}
		}
	}
	f.seen, f.cur = seq, max(f.cur, seq)
	close(f.moved)
	f.moved = make(chan struct{})
	return nil
}

// errNotFollowed: the follower cannot answer; read the store directly.
var errNotFollowed = errors.New("handler: not followed")

// read returns current snapshots of aggs (all of one ranking's followed
// kinds), or errNotFollowed when the store must be read directly.
func (f *follower) read(ctx context.Context, slug string, aggs []events.Aggregate) ([]*slot, error) {
	filter := events.SubjectPrefix + "*." + slug + ".>"
	for range 3 {
		f.mu.Lock()
		seen := f.seen
		f.mu.Unlock()
		newer, err := f.src.NextAfter(ctx, seen, filter)
		if err != nil {
			return nil, err
		}
		if newer == 0 {
			return f.snapshots(ctx, aggs)
		}
		// An event of this ranking is stored that the follower has not
		// applied yet: wait for it, then ask again.
		if !f.waitFor(ctx, newer) {
			break
		}
	}
	return nil, errNotFollowed
}

// waitFor waits until the follower has applied seq, for at most followWait.
func (f *follower) waitFor(ctx context.Context, seq uint64) bool {
	t := time.NewTimer(followWait)
	defer t.Stop()
	for {
		f.mu.Lock()
		seen, moved := f.seen, f.moved
		f.mu.Unlock()
		if seen >= seq {
			return true
		}
		select {
		case <-moved:
		case <-t.C:
			return false
		case <-ctx.Done():
			return false
		}
	}
}

// fast returns snapshots of aggs and the sequence they are current at,
// without a round trip, when every one is kept and loaded: the caller's
// append must then expect that sequence as the stream's last, which proves
// nothing was stored since — the state a check would have shown, verified
// when the decision is stored rather than when it started. In a desk where
// one command runs at a time (the common case) this saves the check: a
// command's own event is known current at once (stored), without waiting
// for the stream to deliver it.
func (f *follower) fast(aggs []events.Aggregate) ([]*slot, fastAt, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]*slot, len(aggs))
	for i, a := range aggs {
		if !slices.Contains(followedKinds, a.Kind) {
			return nil, fastAt{}, false
		}
		k := f.loadedLocked(a)
		if k == nil {
			return nil, fastAt{}, false
		}
		out[i] = &slot{state: k.e.state, seq: k.e.seq, loaded: true}
	}
	return out, fastAt{seq: f.cur, version: f.version}, true
}

// fastAt is where the fast path's states are current: at stream position
// seq, as the follower's version-th followed event left them.
type fastAt struct{ seq, version uint64 }

// stored records an append of this handler: evs were stored at the
// sequences up to last. When the first of them directly follows cur, nothing
// else was stored in between (sequences are contiguous), so if none of them
// is of a followed kind the kept states are current at last too, before the
// stream delivers them — and the next command's fast path holds. (Without
// this a command would find cur one behind its predecessor's event, still
// on its way from the stream, and miss every time.)
func (f *follower) stored(last uint64, evs []events.Event) {
	if f == nil {
		return
	}
	for _, ev := range evs {
		if slices.Contains(followedKinds, ev.Kind()) {
			return
		}
	}
	first := last + 1 - uint64(len(evs))
	f.mu.Lock()
	defer f.mu.Unlock()
	if first == f.cur+1 {
		f.cur = last
	}
}
