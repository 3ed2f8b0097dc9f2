package jetstream

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/crossrank/crossrank/events"
	"github.com/nats-io/nats.go/jetstream"
)

// Follow calls fn for every stored message with sequence >= from, in
// order, then keeps following new ones until ctx is done, like Tail. A
// message whose subject keep accepts is decoded and passed as e; for the
// others fn gets only the sequence (e is nil), so a follower knows how far
// it has read without paying to decode what it does not keep.
func (s *Store) Follow(ctx context.Context, from uint64, keep func(subject string) bool, fn func(seq uint64, e *events.Event) error) error {
	next := max(from, 1)
	pause := tailMinPause
	for {
		err := s.consume(ctx, next, 0, func(m jetstream.Msg, seq uint64) error {
			if seq < next {
				return nil // already delivered before a reset
			}
			var ev *events.Event
			if keep(m.Subject()) {
				e, err := events.Decode(m.Subject(), events.Header(m.Headers()), m.Data(), seq)
				if err != nil {
					return err
				}
				ev = &e
			}
			if err := fn(seq, ev); err != nil {
				return err
			}
			next, pause = seq+1, tailMinPause
			return nil
		})
		if ctx.Err() != nil {
			return ctx.Err()
		}
		var cb callbackError
		if errors.As(err, &cb) {
			return cb.err
		}
		if s.nc.IsClosed() {
			return fmt.Errorf("%w: follow: connection closed: %v", events.ErrUnavailable, err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(pause):
		}
		pause = min(2*pause, tailMaxPause)
	}
}

// NextAfter returns the sequence of the first stored message matching
// filter with sequence > after, or 0 when there is none: one round trip
// that tells a follower at sequence after whether it has missed anything on
// those subjects. On a replicated stream the leader answers (a direct get
// may come from a replica that has not applied the latest writes yet).
func (s *Store) NextAfter(ctx context.Context, after uint64, filter string) (uint64, error) {
	if err := s.connected(); err != nil {
		return 0, err
	}
	ctx, cancel := s.bound(ctx)
	defer cancel()
	if s.replicated {
		m, err := s.leaderGet(ctx, after+1, filter, false)
		if errors.Is(err, jetstream.ErrMsgNotFound) {
			return 0, nil
		}
		if err != nil {
			return 0, s.wrap("next after", err)
		}
		return m.Sequence, nil
	}
	msgs, _, err := s.direct.batch(ctx, StreamName, after+1, filter, 1)
	if err != nil {
		return 0, s.wrap("next after", err)
	}
	if len(msgs) == 0 {
		return 0, nil
	}
	seq, err := strconv.ParseUint(msgs[0].Header.Get(jetstream.SequenceHeader), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("jetstream: next after: direct get without a sequence: %w", err)
	}
	return seq, nil
}
