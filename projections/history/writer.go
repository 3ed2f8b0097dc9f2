package history

import (
	"cmp"
	"context"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// Writer turns what the domain's Decide functions return into events, on
// states it evolves itself, and appends them in atomic batches of about
// batchSize with an expectation per aggregate: the events the desk's
// commands would have appended, without a handler. Ids and times
// derive from Rng and Clock, so a seed gives the same events on an empty
// store. The store must have no other writer meanwhile. Generate and
// `crossrank bench` build their datasets with it.
type Writer struct {
	Rng   *rand.Rand
	Clock time.Time // advanced by a random step at every decision
	// Folded writes the events as the domain decides them now: a vote's
	// change of status inside the vote (events.Transition), a methodology
	// proposed from the start inside its ProposalOpened. Without it the
	// writer unfolds them into the separate events commands appended
	// before (Unfold), so that a seed's history, and the benchmarks'
	// datasets, stay those of earlier rounds, and every large history
	// replays the shape every store written before the fold holds. A
	// folded writer draws the ids the unfolded events would have had
	// all the same, so both shapes of a seed make the same choices at the
	// same times.
	Folded bool
	// BatchSize is how many events an append holds at most; 0: 100.
	BatchSize int

	ctx   context.Context
	store events.Store
	label string // names the writer in its errors
	step  int    // a decision comes 5 s + [0, step) s after the last
	count int    // events emitted
	next  uint64 // sequence the next event will be stored at
	first bool   // the store was empty: head is the audit chain head
	head  string // audit chain head after next-1, when first
	batch []events.Event

	states map[events.Aggregate]any
	stored map[events.Aggregate]uint64 // last stored sequence: the expectations
}

// batchSize is how many events a Writer appends at once.
const batchSize = 100

// NewWriter returns a Writer that starts writing after the store's last
// event. label names the writer in errors; step bounds the time between two
// decisions (s).
func NewWriter(ctx context.Context, store events.Store, label string, rng *rand.Rand, clock time.Time, step int) (*Writer, error) {
	last, err := store.LastSequence(ctx)
	if err != nil {
		return nil, err
	}
	return &Writer{Rng: rng, Clock: clock, ctx: ctx, store: store, label: label, step: step,
		next: last + 1, first: last == 0, states: map[events.Aggregate]any{}, stored: map[events.Aggregate]uint64{}}, nil
}

// As returns the function that turns a decision by actor into events: one
// time per decision, the sequences they will be stored at, and the states
// evolved. The batch is appended first when they would not fit in it.
func (w *Writer) As(actor domain.Actor) func([]domain.Change, error) error {
	return func(changes []domain.Change, err error) error {
		if err != nil {
			return fmt.Errorf("%s: %s: %w", w.label, actor.Name, err)
		}
		unfolded := Unfold(changes)
		if !w.Folded {
			changes = unfolded
		}
		if len(w.batch)+len(changes) > cmp.Or(w.BatchSize, batchSize) {
			if err := w.Flush(); err != nil {
				return err
			}
		}
		w.Clock = w.Clock.Add(time.Duration(5+w.Rng.IntN(w.step)) * time.Second)
		first := ""
		for _, c := range changes {
			ev, err := events.New(w.ID(), w.Clock, actor.Name, c.Aggregate.ID, c.Data)
			if err != nil {
				return err
			}
			if v1, ok := unfoldedType[ev.Type]; ok && !w.Folded {
				if ev, err = ev.WrittenAs(v1); err != nil {
					return err
				}
			}
			if first == "" {
				first = ev.ID
			}
			ev.CorrelationID, ev.CausationID = first, first
			ev.Sequence = w.next
			w.next++
			w.State(c.Aggregate).(interface{ Evolve(events.Event) }).Evolve(ev)
			if w.first {
				w.head = events.ChainHash(w.head, ev)
			}
			w.batch = append(w.batch, ev)
		}
		// The events folded away are the last of their decision's when
		// unfolded: their ids are drawn after the others'.
		for range len(unfolded) - len(changes) {
			w.ID()
		}
		w.count += len(unfolded)
		return nil
	}
}

// Unfold returns changes with every change of status a vote or dismissed
// veto carries (events.Transition), every methodology a ProposalOpened
// carries and every token a PasswordChanged revokes as the separate events
// that followed it before they were folded in: the events the same
// decision appended then. The payloads are copies;
// changes is left as it is.
func Unfold(changes []domain.Change) []domain.Change {
	out := make([]domain.Change, 0, len(changes)+1)
	for _, c := range changes {
		var next []any
		switch d := c.Data.(type) {
		case *events.VoteCast:
			v := *d
			v.Transition, next = events.Transition{}, transitionEvent(d.Transition)
			c.Data = &v
		case *events.VetoDismissed:
			v := *d
			v.Transition, next = events.Transition{}, transitionEvent(d.Transition)
			c.Data = &v
		case *events.ProposalOpened:
			if d.Proposed != nil {
				o := *d
				o.Proposed, next = nil, []any{d.Proposed}
				c.Data = &o
			}
		case *events.PasswordChanged:
			if len(d.RevokedTokens) > 0 {
				for _, id := range d.RevokedTokens {
					next = append(next, &events.TokenRevoked{TokenID: id})
				}
				c.Data = &events.PasswordChanged{PasswordHash: d.PasswordHash}
			}
		}
		out = append(out, c)
		for _, n := range next {
			out = append(out, domain.Change{Aggregate: c.Aggregate, Data: n})
		}
	}
	return out
}

// unfoldedType maps the types whose version moved with the fold to the
// version the desk wrote before it: an unfolded history is stored as that
// desk stored it, types included, and keeps its digest and audit hashes.
var unfoldedType = map[string]string{
	events.TypeVoteCast:        "crossrank.proposal.vote_cast.v1",
	events.TypeVetoDismissed:   "crossrank.proposal.veto_dismissed.v1",
	events.TypeProposalOpened:  "crossrank.proposal.opened.v1",
	events.TypePasswordChanged: "crossrank.user.password_changed.v1",
}

// transitionEvent returns the separate event of a transition, none for none.
func transitionEvent(t events.Transition) []any {
	switch {
	case t.CrossValidated != nil:
		return []any{t.CrossValidated}
	case t.ReturnedToReview != nil:
		return []any{t.ReturnedToReview}
	}
	return nil
}

// Flush appends the batch with the last stored sequence of each aggregate
// it writes as expectation.
func (w *Writer) Flush() error {
	if len(w.batch) == 0 {
		return nil
	}
	var expect []events.Expectation
	seen := map[events.Aggregate]bool{}
	for _, ev := range w.batch {
		if a := ev.Aggregate(); !seen[a] {
			seen[a] = true
			expect = append(expect, events.Expectation{Aggregate: a, LastSeq: w.stored[a]})
		}
	}
	last, err := w.store.Append(w.ctx, expect, w.batch...)
	if err != nil {
		return fmt.Errorf("%s: append: %w", w.label, err)
	}
	if want := w.batch[len(w.batch)-1].Sequence; last != want {
		return fmt.Errorf("%s: stored at %d, expected %d: another writer is appending", w.label, last, want)
	}
	for _, ev := range w.batch {
		w.stored[ev.Aggregate()] = ev.Sequence
	}
	w.batch = w.batch[:0]
	return nil
}

// Count returns how many events the writer has emitted, counted unfolded
// (Unfold) when Folded: both shapes of a seed end after the same decision.
func (w *Writer) Count() int { return w.count }

// Next returns the sequence the next event will be stored at.
func (w *Writer) Next() uint64 { return w.next }

// AuditHead returns the audit chain head after the last emitted event and
// its sequence; ok is false when the store held events before the writer
// (it cannot know the chain then).
func (w *Writer) AuditHead() (head string, seq uint64, ok bool) {
	return w.head, w.next - 1, w.first
}

// ID returns a UUIDv7 with the clock's milliseconds and random bits from Rng.
func (w *Writer) ID() string {
	var u [16]byte
	binary.BigEndian.PutUint64(u[0:8], uint64(w.Clock.UnixMilli())<<16|0x7000|w.Rng.Uint64()&0x0fff)
	binary.BigEndian.PutUint64(u[8:16], w.Rng.Uint64())
	u[8] = u[8]&0x3f | 0x80
	h := hex.EncodeToString(u[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

// State returns the writer's state of aggregate a (a zero one at first).
func (w *Writer) State(a events.Aggregate) any {
	if st, ok := w.states[a]; ok {
		return st
	}
	st := domain.ZeroState(a)
	if st == nil {
		panic(w.label + ": no state for " + a.String())
	}
	w.states[a] = st
	return st
}

// Ranking, Edition, Proposal, Entry and User return typed states.
func (w *Writer) Ranking(slug string) *domain.Ranking {
	return w.State(domain.RankingID(slug)).(*domain.Ranking)
}
func (w *Writer) Edition(slug string) *domain.Edition {
	return w.State(domain.EditionID(slug)).(*domain.Edition)
}
func (w *Writer) Proposal(id string) *domain.Proposal {
	return w.State(domain.ProposalID(id)).(*domain.Proposal)
}
func (w *Writer) Entry(r, e string) *domain.Entry {
	return w.State(domain.EntryID(r, e)).(*domain.Entry)
}
func (w *Writer) User(name string) *domain.User {
	return w.State(domain.UserID(name)).(*domain.User)
}

// Actor returns user name as the actor of a decision.
func (w *Writer) Actor(name string) domain.Actor { return w.User(name).Actor() }
