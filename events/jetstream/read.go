package jetstream

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/crossrank/crossrank/events"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Replay calls fn for every event with sequence >= from, in order, up to the
// last event stored when Replay was called. An event that does not decode
// stops the replay with an error naming its sequence.
func (s *Store) Replay(ctx context.Context, from uint64, fn func(events.Event) error) error {
	return s.replay(ctx, from, func(m jetstream.Msg, seq uint64) error {
		e, err := events.Decode(m.Subject(), events.Header(m.Headers()), m.Data(), seq)
		if err != nil {
			return err
		}
		return fn(e)
	})
}

// RawReplay is Replay without decoding: the speed reference for benchmarks,
// and a way to inspect messages Replay refuses.
func (s *Store) RawReplay(ctx context.Context, from uint64, fn func(seq uint64, subject string, h nats.Header, body []byte) error) error {
	return s.replay(ctx, from, func(m jetstream.Msg, seq uint64) error {
		return fn(seq, m.Subject(), m.Headers(), m.Data())
	})
}

// RawPublish is a plain synchronous JetStream publish with the given headers:
// the speed reference for Append in benchmarks, and the way tests store
// messages Append would refuse.
func (s *Store) RawPublish(ctx context.Context, subject string, h nats.Header, body []byte) (uint64, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	ack, err := s.js.PublishMsg(ctx, &nats.Msg{Subject: subject, Header: h, Data: body})
	if err != nil {
		return 0, s.wrap("publish", err)
	}
	return ack.Sequence, nil
}

func (s *Store) replay(ctx context.Context, from uint64, fn func(jetstream.Msg, uint64) error) error {
	last, err := s.LastSequence(ctx)
	if err != nil {
		return err
	}
	from = max(from, 1)
	if last < from {
		return nil
	}
	err = s.consume(ctx, from, last, fn)
	var cb callbackError
	if errors.As(err, &cb) {
		return cb.err
	}
	return err
}

// Tail calls fn for every event with sequence >= from, in order, then keeps
// following new events until ctx is done, when it returns ctx.Err(). An error
// from fn or an event that does not decode stops it with that error.
//
// A server restart, a reconnect or a leader change only pauses it: the
// ordered consumer is created again from the sequence after the last one
// delivered, so fn sees every event exactly once.
func (s *Store) Tail(ctx context.Context, from uint64, fn func(events.Event) error) error {
	next := max(from, 1)
	pause := tailMinPause
	for {
		err := s.consume(ctx, next, 0, func(m jetstream.Msg, seq uint64) error {
			if seq < next {
				return nil // already delivered before a reset
			}
			e, err := events.Decode(m.Subject(), events.Header(m.Headers()), m.Data(), seq)
			if err != nil {
				return err
			}
			if err := fn(e); err != nil {
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
			return fmt.Errorf("%w: tail: connection closed: %v", events.ErrUnavailable, err)
		}
		// Transient: the server is restarting or the connection is down.
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(pause):
		}
		pause = min(2*pause, tailMaxPause)
	}
}

const (
	tailMinPause = 100 * time.Millisecond
	tailMaxPause = 5 * time.Second
)

// callbackError marks an error returned by the caller's function, which ends
// a replay or tail, apart from transport errors, which Tail rides out.
type callbackError struct{ err error }

func (c callbackError) Error() string { return c.err.Error() }
func (c callbackError) Unwrap() error { return c.err }

// consume delivers messages from sequence from through an ordered consumer
// until it has passed sequence until (0: never).
func (s *Store) consume(ctx context.Context, from, until uint64, fn func(jetstream.Msg, uint64) error) error {
	if err := s.connected(); err != nil {
		return err
	}
	cctx, cancel := s.bound(ctx)
	cons, err := s.js.OrderedConsumer(cctx, StreamName, jetstream.OrderedConsumerConfig{
		DeliverPolicy: jetstream.DeliverByStartSequencePolicy,
		OptStartSeq:   from,
		// One attempt, then the error comes back: Replay reports it rather
		// than hang through an outage, and Tail starts over from its own
		// cursor with its own backoff (the client's is 1s doubling to 10s).
		MaxResetAttempts: 1,
	})
	cancel()
	if err != nil {
		return s.wrap("ordered consumer", err)
	}
	// The buffer is bounded by bytes alone. Bounded by a message count as
	// well, the client's channel (as long as that count) overflowed with
	// the pull requests' status messages whenever the reader fell behind:
	// "slow consumer, messages dropped", and the ordered consumer started
	// over. The bound is the largest message the server accepts, and a
	// little for its subject and framing: a pull smaller than one message
	// would stall on it. Against 2 MiB it holds 5–20 MiB less live heap
	// in a 1M rebuild, as fast.
	it, err := cons.Messages(jetstream.PullMaxBytes(pullBytes(s.nc.MaxPayload())))
	if err != nil {
		return s.wrap("ordered consumer", err)
	}
	defer s.release(cons, it)
	// Stop also cancels a reset waiting in its backoff inside Next.
	defer context.AfterFunc(ctx, it.Stop)()
	for {
		m, err := it.Next(jetstream.NextContext(ctx))
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return s.wrap("consume", err)
		}
		md, err := m.Metadata()
		if err != nil {
			return s.wrap("consume", err)
		}
		seq := md.Sequence.Stream
		if err := fn(m, seq); err != nil {
			return callbackError{err}
		}
		if until > 0 && seq >= until {
			return nil
		}
	}
}

// release stops the iterator and deletes the server's consumer now rather
// than after its 5-minute inactivity threshold, so `nats consumer ls` shows
// only live readers. Best effort: a server that is down forgets it anyway.
func (s *Store) release(cons jetstream.Consumer, it jetstream.MessagesContext) {
	it.Stop()
	info := cons.CachedInfo()
	if info == nil || !s.nc.IsConnected() {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = s.js.DeleteConsumer(ctx, StreamName, info.Name)
}

// pullBytes is the byte bound of a replay's pulls for a server whose
// largest message is maxPayload (1 MiB unless configured): that, 8 KiB
// for the subject and framing, and never under 1 MiB.
func pullBytes(maxPayload int64) int {
	return int(max(maxPayload, 1<<20) + 8<<10)
}
