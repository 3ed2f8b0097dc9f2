package projections

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/crossrank/crossrank/events"
	"github.com/mattn/go-sqlite3"
)

// BatchSize is how many events one transaction applies at most.
const BatchSize = 1000

// Tailer delivers events from a sequence on, live, until ctx ends.
type Tailer interface {
	Tail(ctx context.Context, from uint64, fn func(events.Event) error) error
}

// Run tails the stream from the checkpoint and applies events in batches
// until ctx ends. Events are collected while a batch commits, so a burst is
// applied in few transactions while a single event is applied at once. When
// the tail fails (a NATS restart) it resumes from the checkpoint; an event it
// cannot project stops Run with an error naming its sequence.
func (s *Store) Run(ctx context.Context, src Tailer, log *slog.Logger) error {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	for {
		err := s.tailOnce(ctx, src)
		if ctx.Err() != nil {
			return nil
		}
		if isFatal(err) {
			return err
		}
		log.Warn("projection tail interrupted; resuming from checkpoint", "err", err)
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// isFatal reports whether err will recur however often the batch is
// retried: an event outside the catalog, a malformed one, or one whose rows
// the database refuses (a constraint it breaks, a corrupt file). A busy or
// full database, a lost connection or an I/O error may pass.
func isFatal(err error) bool {
	var se sqlite3.Error
	if errors.As(err, &se) {
		switch se.Code {
		case sqlite3.ErrConstraint, sqlite3.ErrMismatch, sqlite3.ErrTooBig, sqlite3.ErrRange,
			sqlite3.ErrCorrupt, sqlite3.ErrNotADB:
			return true
		}
	}
	return errors.Is(err, events.ErrUnknownType) || errors.Is(err, events.ErrMalformed)
}

func (s *Store) tailOnce(ctx context.Context, src Tailer) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	from, _ := s.Checkpoint()
	ch := make(chan events.Event, 4*BatchSize)
	tailErr := make(chan error, 1)
	go func() {
		tailErr <- src.Tail(ctx, from+1, func(ev events.Event) error {
			select {
			case ch <- ev:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		})
	}()
	batch := make([]events.Event, 0, BatchSize)
	var gate editionGate
	for {
		select {
		case err := <-tailErr:
			// apply what arrived before the tail stopped
			for len(ch) > 0 {
				batch = append(batch, <-ch)
			}
			if aerr := s.applyBatch(ctx, batch); aerr != nil {
				return aerr
			}
			if err == nil {
				err = errors.New("tail ended")
			}
			return err
		case ev := <-ch:
			batch = append(batch[:0], ev)
			gate.see(ev)
			for len(batch) < BatchSize && len(ch) > 0 {
				ev := <-ch
				batch = append(batch, ev)
				gate.see(ev)
			}
			// An edition commits whole, in one transaction, however many
			// events it takes: its parts, its head and the
			// ProposalPublished of each proposal it releases. No reader sees
			// part of an edition, nor an edition whose proposals still look
			// ready to publish. They are on their way (one atomic batch);
			// only the proposals' events are waited for with a bound, in
			// case a log written otherwise lacks some.
			for gate.open() {
				var late <-chan time.Time
				var timer *time.Timer
				if !gate.inParts {
					timer = time.NewTimer(editionWait)
					late = timer.C
				}
				more := false
				select {
				case ev := <-ch:
					batch = append(batch, ev)
					gate.see(ev)
					more = true
				case err := <-tailErr:
					tailErr <- err // handled above, after this batch
				case <-late:
					gate.owed = 0
				case <-ctx.Done():
				}
				if timer != nil {
					timer.Stop()
				}
				if !more {
					break
				}
			}
			if err := s.applyBatch(ctx, batch); err != nil {
				return err
			}
		}
	}
}

// editionWait bounds the wait for an edition's ProposalPublished events
// after its head: they come in the same atomic batch, at once.
const editionWait = 2 * time.Second

// editionGate tells whether the events seen so far end inside an edition:
// among its parts (the head follows them), or after its head while some
// of the ProposalPublished it owes, one per proposal it releases, have not
// come (those of the same command, by correlation id).
type editionGate struct {
	inParts bool
	owed    int
	corr    string
}

func (g *editionGate) open() bool { return g.inParts || g.owed > 0 }

func (g *editionGate) see(ev events.Event) {
	_, g.inParts = ev.Data.(*events.EditionPartRecorded)
	switch d := ev.Data.(type) {
	case *events.EditionPublished:
		g.owed, g.corr = len(d.Proposals), ev.CorrelationID
		if d.Size != nil {
			g.owed = d.Size.Proposals
		}
		if g.corr == "" {
			g.owed = 0 // no way to tell its events from others'
		}
	case *events.ProposalPublished:
		if ev.CorrelationID == g.corr && g.owed > 0 {
			g.owed--
		}
	default:
		if ev.CorrelationID != g.corr {
			g.owed = 0 // another command: the edition's events have ended
		}
	}
}

func (s *Store) applyBatch(ctx context.Context, batch []events.Event) error {
	if len(batch) == 0 {
		return nil
	}
	err := s.Apply(ctx, batch)
	if err != nil && isFatal(err) && len(batch) > 1 {
		// Apply the events before the one that fails, one by one, so the
		// read models stop just before it.
		for _, ev := range batch {
			if err = s.Apply(ctx, []events.Event{ev}); err != nil {
				break
			}
		}
	}
	if err != nil {
		return fmt.Errorf("applying events %d–%d: %w", batch[0].Sequence, batch[len(batch)-1].Sequence, err)
	}
	return nil
}

// Lag returns how many events the read model is behind last, and how long
// ago it last committed.
func (s *Store) Lag(last uint64) (uint64, time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if last <= s.seq {
		return 0, 0
	}
	return last - s.seq, time.Since(s.applied)
}
