// Package storetest is the conformance suite every events.Store passes.
//
// A store implementation runs it from its own tests:
//
//	func TestConformance(t *testing.T) {
//		storetest.Run(t, func(t *testing.T) events.Store { return openTestStore(t) })
//	}
//
// open may return a fresh store for every test or the same one: each test
// writes to new aggregates and checks sequences relative to what it wrote.
// Tests run one after another, never in parallel, so a test that replays to
// the end of the log sees only its own writes.
package storetest

import (
	"context"
	"fmt"
	"reflect"
	"sync/atomic"
	"testing"
	"time"

	"github.com/crossrank/crossrank/events"
)

// Timeout bounds each test of the suite.
const Timeout = 60 * time.Second

// Run runs every conformance test against stores returned by open.
func Run(t *testing.T, open func(t *testing.T) events.Store) {
	tests := []struct {
		name string
		run  func(f *fixture)
	}{
		{"RoundTripAllAttributes", testRoundTrip},
		{"ExpectedSequenceConflict", testConflict},
		{"ExpectationOnUntouchedAggregate", testExpectOtherAggregate},
		{"ExpectationOnTheStream", testExpectStream},
		{"ExpectationOnTheLastEvent", testExpectAfter},
		{"ConcurrentAppendsOneWins", testConcurrentAppends},
		{"RetrySameEventID", testRetry},
		{"RetryAfterLaterEvents", testRetryAfterLaterEvents},
		{"BatchConflictStoresNothing", testBatchConflict},
		{"BatchAcrossAggregatesIsAtomic", testBatchAcrossAggregates},
		{"BatchRetry", testBatchRetry},
		{"LoadAfter", testLoadAfter},
		{"LoadMoreThanOneRoundTrip", testLoadMany},
		{"ReplayFromMiddle", testReplayFromMiddle},
		{"ReplayStopsAtLastAtCallTime", testReplayBounded},
		{"ReplayStopsOnCallbackError", testReplayCallbackError},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), Timeout)
			defer cancel()
			tt.run(&fixture{t: t, s: open(t), ctx: ctx})
		})
	}
}

// fixture builds events for new aggregates and checks results.
type fixture struct {
	t   *testing.T
	s   events.Store
	ctx context.Context
}

var clock atomic.Int64

// now returns distinct, increasing times with nanoseconds, so the round trip
// of ce-time is exercised at full precision.
func now() time.Time {
	base := time.Date(2026, 3, 14, 9, 26, 53, 589793238, time.UTC)
	return base.Add(time.Duration(clock.Add(1)) * time.Millisecond)
}

func newID() string { return events.NewID(time.Now()) }

func (f *fixture) proposal() events.Aggregate {
	return events.Aggregate{Kind: events.KindProposal, ID: "p-" + newID()}
}

func (f *fixture) entry() events.Aggregate {
	return events.Aggregate{Kind: events.KindEntry, ID: "e-" + newID()}
}

// event returns a new event for agg; n varies the payload.
func (f *fixture) event(agg events.Aggregate, n int) events.Event {
	f.t.Helper()
	var payload any
	switch agg.Kind {
	case events.KindProposal:
		payload = &events.VoteCast{Revision: n, Verdict: events.Approve, VerifiedEvidence: []string{"e1"}, Comment: fmt.Sprintf("vote %d ✓ 可信", n)}
	case events.KindEntry:
		payload = &events.EntryCreated{Ranking: "gpu-cloud", Slug: fmt.Sprintf("entry-%d", n), Name: events.Text{Zh: "算力云", En: "Compute Cloud"}, Category: "marketplace"}
	default:
		f.t.Fatalf("no fixture payload for kind %q", agg.Kind)
	}
	at := now()
	e, err := events.New(events.NewID(at), at, "alice", agg.ID, payload)
	if err != nil {
		f.t.Fatalf("events.New: %v", err)
	}
	return e
}

func (f *fixture) events(agg events.Aggregate, n int) []events.Event {
	out := make([]events.Event, n)
	for i := range out {
		out[i] = f.event(agg, i+1)
	}
	return out
}

func expect(agg events.Aggregate, last uint64) []events.Expectation {
	return []events.Expectation{{Aggregate: agg, LastSeq: last}}
}

func (f *fixture) mustAppend(x []events.Expectation, evs ...events.Event) uint64 {
	f.t.Helper()
	seq, err := f.s.Append(f.ctx, x, evs...)
	if err != nil {
		f.t.Fatalf("Append(%d events): %v", len(evs), err)
	}
	return seq
}

func (f *fixture) load(agg events.Aggregate, after uint64) []events.Event {
	f.t.Helper()
	got, err := f.s.Load(f.ctx, agg, after)
	if err != nil {
		f.t.Fatalf("Load(%v, %d): %v", agg, after, err)
	}
	return got
}

func (f *fixture) last() uint64 {
	f.t.Helper()
	seq, err := f.s.LastSequence(f.ctx)
	if err != nil {
		f.t.Fatalf("LastSequence: %v", err)
	}
	return seq
}

// ids lists the event ids, for readable comparisons.
func ids(evs []events.Event) []string {
	out := make([]string, len(evs))
	for i, e := range evs {
		out[i] = e.ID
	}
	return out
}

// wantIDs fails unless got holds exactly the events of want, in order.
func (f *fixture) wantIDs(what string, got, want []events.Event) {
	f.t.Helper()
	if g, w := ids(got), ids(want); !reflect.DeepEqual(g, w) {
		f.t.Fatalf("%s: got %d events %v, want %d %v", what, len(g), g, len(w), w)
	}
}

// wantOrdered fails unless sequences strictly increase.
func (f *fixture) wantOrdered(what string, evs []events.Event) {
	f.t.Helper()
	for i := 1; i < len(evs); i++ {
		if evs[i].Sequence <= evs[i-1].Sequence {
			f.t.Fatalf("%s: sequence %d after %d", what, evs[i].Sequence, evs[i-1].Sequence)
		}
	}
}

// sameEvent fails unless got is want as stored at seq, attribute by attribute.
func (f *fixture) sameEvent(got, want events.Event, seq uint64) {
	f.t.Helper()
	checks := []struct {
		attr      string
		got, want any
	}{
		{"id", got.ID, want.ID},
		{"source", got.Source, want.Source},
		{"type", got.Type, want.Type},
		{"stored type", got.StoredType, want.StoredType},
		{"subject", got.Subject, want.Subject},
		{"time", got.Time.Format(time.RFC3339Nano), want.Time.UTC().Format(time.RFC3339Nano)},
		{"time zone", got.Time.Location(), time.UTC},
		{"actor", got.Actor, want.Actor},
		{"authvia", got.AuthVia, want.AuthVia},
		{"datacontenttype", got.DataContentType, want.DataContentType},
		{"correlationid", got.CorrelationID, want.CorrelationID},
		{"causationid", got.CausationID, want.CausationID},
		{"raw", string(got.Raw), string(want.Raw)},
		{"data", got.Data, want.Data},
		{"sequence", got.Sequence, seq},
	}
	for _, c := range checks {
		if !reflect.DeepEqual(c.got, c.want) {
			f.t.Errorf("%s: got %#v, want %#v", c.attr, c.got, c.want)
		}
	}
}
