package jetstream_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/events/jetstream"
	"github.com/crossrank/crossrank/events/storetest"
	"github.com/nats-io/nats.go"
	natsjs "github.com/nats-io/nats.go/jetstream"
)

// TestConformance runs the store suite against a fresh embedded server in a
// temporary directory for every test.
func TestConformance(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T) events.Store { return newStore(t) })
}

// rawPublish stores e as Append would, minus the headers in drop.
func rawPublish(t *testing.T, s *jetstream.Store, e events.Event, drop ...string) uint64 {
	t.Helper()
	subject, h, body, err := events.Encode(e)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range drop {
		delete(h, k)
	}
	seq, err := s.RawPublish(testContext(t), subject, nats.Header(h), body)
	if err != nil {
		t.Fatalf("RawPublish: %v", err)
	}
	return seq
}

// TestUnknownTypeStopsReplay: a message of a type outside the catalog (written
// by a newer version, say) stops Replay and Load loudly, naming its sequence.
func TestUnknownTypeStopsReplay(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := testContext(t)
	good, err := s.Append(ctx, nil, vote(t, "p-bogus", 1))
	if err != nil {
		t.Fatal(err)
	}
	bogus := vote(t, "p-bogus", 2)
	subject, h, body, _ := events.Encode(bogus)
	h[events.HeaderType] = []string{"crossrank.proposal.bogus_happened.v1"}
	subject = strings.Replace(subject, ".vote_cast", ".bogus_happened", 1)
	bad, err := s.RawPublish(ctx, subject, nats.Header(h), body)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Append(ctx, nil, vote(t, "p-bogus", 3)); err != nil {
		t.Fatal(err)
	}

	var seen []uint64
	err = s.Replay(ctx, 1, func(e events.Event) error { seen = append(seen, e.Sequence); return nil })
	if !errors.Is(err, events.ErrUnknownType) || !strings.Contains(err.Error(), fmt.Sprintf("seq %d", bad)) {
		t.Fatalf("Replay error = %v, want ErrUnknownType naming seq %d", err, bad)
	}
	if len(seen) != 1 || seen[0] != good {
		t.Errorf("Replay delivered %v before stopping, want [%d]", seen, good)
	}
	if _, err := s.Load(ctx, proposal("p-bogus"), 0); !errors.Is(err, events.ErrUnknownType) {
		t.Errorf("Load error = %v, want ErrUnknownType", err)
	}
	// The raw reader still sees every message, for diagnosis.
	var raw []string
	if err := s.RawReplay(ctx, 1, func(seq uint64, subject string, h nats.Header, body []byte) error {
		raw = append(raw, h.Get(events.HeaderType))
		return nil
	}); err != nil || len(raw) != 3 || raw[1] != "crossrank.proposal.bogus_happened.v1" {
		t.Errorf("RawReplay = %v, %v", raw, err)
	}
}

// TestRetryAfterDuplicateWindow: once the server has forgotten an event id
// (past the 2-minute window, simulated by storing it without Nats-Msg-Id),
// a retry is still recognised by reloading the aggregate.
func TestRetryAfterDuplicateWindow(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := testContext(t)

	single := vote(t, "p-window", 1)
	seq := rawPublish(t, s, single, events.HeaderMsgID)
	if got, err := s.Append(ctx, expect("p-window", 0), single); err != nil || got != seq {
		t.Errorf("single retry = %d, %v; want %d, nil", got, err, seq)
	}

	batch := []events.Event{vote(t, "p-window", 2), vote(t, "p-window", 3), vote(t, "p-window", 4)}
	var last uint64
	for _, e := range batch {
		last = rawPublish(t, s, e, events.HeaderMsgID)
	}
	if got, err := s.Append(ctx, expect("p-window", seq), batch...); err != nil || got != last {
		t.Errorf("batch retry = %d, %v; want %d, nil", got, err, last)
	}

	// The first id stored but not followed by the rest: not a retry.
	reused := []events.Event{batch[0], vote(t, "p-window", 5)}
	if _, err := s.Append(ctx, expect("p-window", seq), reused...); !errors.Is(err, events.ErrConflict) {
		t.Errorf("reused id error = %v, want ErrConflict", err)
	}
	got, err := s.Load(ctx, proposal("p-window"), 0)
	if err != nil || len(got) != 4 {
		t.Fatalf("aggregate holds %d events (%v), want 4", len(got), err)
	}
}

// TestAppendRefuses covers appends the store rejects before sending anything.
func TestAppendRefuses(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := testContext(t)
	mod := func(f func(*events.Event)) events.Event {
		e := vote(t, "p-refuse", 1)
		f(&e)
		return e
	}
	many := make([]events.Event, jetstream.MaxBatch+1)
	for i := range many {
		many[i] = vote(t, "p-refuse", i)
	}
	dup := vote(t, "p-refuse", 1)
	tests := []struct {
		name   string
		expect []events.Expectation
		evs    []events.Event
		want   error
	}{
		{"no events", nil, nil, events.ErrMalformed},
		{"too many events", nil, many, events.ErrTooLarge},
		{"actor padded with spaces", nil, []events.Event{mod(func(e *events.Event) { e.Actor = " alice" })}, events.ErrMalformed},
		{"actor with a newline", nil, []events.Event{mod(func(e *events.Event) { e.Actor = "alice\nbob" })}, events.ErrMalformed},
		{"no source", nil, []events.Event{mod(func(e *events.Event) { e.Source = "" })}, events.ErrMalformed},
		{"no id", nil, []events.Event{mod(func(e *events.Event) { e.ID = "" })}, events.ErrMalformed},
		{"type outside the catalog", nil, []events.Event{mod(func(e *events.Event) { e.Type = "crossrank.proposal.vote_cast.v9" })}, events.ErrUnknownType},
		{"aggregate id with a dot", nil, []events.Event{mod(func(e *events.Event) { e.Subject = "p.x" })}, events.ErrMalformed},
		{"body too large", nil, []events.Event{mod(func(e *events.Event) { e.Raw = []byte(`"` + strings.Repeat("x", events.MaxBody) + `"`) })}, events.ErrTooLarge},
		{"same id twice", nil, []events.Event{dup, dup}, events.ErrMalformed},
		{"more expectations than events", []events.Expectation{
			{Aggregate: proposal("p-refuse"), LastSeq: 0}, {Aggregate: proposal("p-other"), LastSeq: 0},
		}, []events.Event{vote(t, "p-refuse", 1)}, events.ErrMalformed},
		{"two expectations for one aggregate", []events.Expectation{
			{Aggregate: proposal("p-refuse"), LastSeq: 0}, {Aggregate: proposal("p-refuse"), LastSeq: 1},
		}, []events.Event{vote(t, "p-refuse", 1), vote(t, "p-refuse", 2)}, events.ErrMalformed},
		{"expectation with a wildcard id", []events.Expectation{
			{Aggregate: proposal(">"), LastSeq: 0},
		}, []events.Event{vote(t, "p-refuse", 1)}, events.ErrMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := s.Append(ctx, tt.expect, tt.evs...); !errors.Is(err, tt.want) {
				t.Errorf("Append error = %v, want %v", err, tt.want)
			}
		})
	}
	if last, _ := s.LastSequence(ctx); last != 0 {
		t.Errorf("refused appends stored %d messages", last)
	}
	if _, err := s.Load(ctx, events.Aggregate{Kind: "proposal", ID: "*"}, 0); !errors.Is(err, events.ErrMalformed) {
		t.Errorf("Load with a wildcard id: error = %v, want ErrMalformed", err)
	}
}

// TestOpen checks the stream as Open leaves it, and that it refuses a
// connection that would buffer publishes while disconnected.
func TestOpen(t *testing.T) {
	t.Parallel()
	e := startServer(t, jetstream.EmbeddedOptions{Dir: t.TempDir()})
	nc := connect(t, e)
	open(t, nc, jetstream.Config{})
	open(t, nc, jetstream.Config{}) // idempotent
	js, _ := natsjs.New(nc)
	st, err := js.Stream(testContext(t), jetstream.StreamName)
	if err != nil {
		t.Fatal(err)
	}
	cfg := st.CachedInfo().Config
	checks := []struct {
		name      string
		got, want any
	}{
		{"subjects", strings.Join(cfg.Subjects, ","), "crossrank.>"},
		{"storage", cfg.Storage, natsjs.FileStorage},
		{"deny delete", cfg.DenyDelete, true},
		{"deny purge", cfg.DenyPurge, true},
		{"allow direct", cfg.AllowDirect, true},
		{"allow atomic publish", cfg.AllowAtomicPublish, true},
		{"duplicate window ≥ 2m", cfg.Duplicates >= 2*time.Minute, true},
		{"no age limit", cfg.MaxAge, time.Duration(0)},
		{"replicas", cfg.Replicas, 1},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s: got %v, want %v", c.name, c.got, c.want)
		}
	}

	buffering, err := e.Connect("buffering", nats.ReconnectBufSize(8<<20))
	if err != nil {
		t.Fatal(err)
	}
	defer buffering.Close()
	if _, err := jetstream.Open(testContext(t), buffering, jetstream.Config{}); err == nil {
		t.Error("Open accepted a connection that buffers while disconnected")
	}
}

// TestEmbeddedListen: with Listen set, standard clients (the nats CLI)
// reach the same stream over TCP.
func TestEmbeddedListen(t *testing.T) {
	t.Parallel()
	e := startServer(t, jetstream.EmbeddedOptions{Dir: t.TempDir(), Listen: "127.0.0.1:0"})
	if e.ClientURL() == "" || strings.HasSuffix(e.ClientURL(), ":0") || strings.HasSuffix(e.ClientURL(), ":-1") {
		t.Fatalf("ClientURL = %q, want the bound address", e.ClientURL())
	}
	inproc := open(t, connect(t, e), jetstream.Config{})
	seq, err := inproc.Append(testContext(t), nil, vote(t, "p-listen", 1))
	if err != nil {
		t.Fatal(err)
	}
	tcp := open(t, connectURL(t, e.ClientURL()), jetstream.Config{})
	if last, err := tcp.LastSequence(testContext(t)); err != nil || last != seq {
		t.Fatalf("over TCP: LastSequence = %d, %v; want %d", last, err, seq)
	}
	if private := startServer(t, jetstream.EmbeddedOptions{Dir: t.TempDir()}); private.ClientURL() != "" {
		t.Errorf("server without Listen has ClientURL %q", private.ClientURL())
	}
}

// TestReplayLeavesNoConsumer: Replay's ordered consumer is deleted when it
// ends, not left for the server to expire.
func TestReplayLeavesNoConsumer(t *testing.T) {
	t.Parallel()
	e := startServer(t, jetstream.EmbeddedOptions{Dir: t.TempDir()})
	nc := connect(t, e)
	s := open(t, nc, jetstream.Config{})
	ctx := testContext(t)
	if _, err := s.Append(ctx, nil, vote(t, "p-consumers", 1)); err != nil {
		t.Fatal(err)
	}
	replayIDs(t, s, 1)
	js, _ := natsjs.New(nc)
	st, err := js.Stream(ctx, jetstream.StreamName)
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the consumer to go", 5*time.Second, func() bool {
		info, err := st.Info(ctx)
		return err == nil && info.State.Consumers == 0
	})
}

// A replay's pulls are bounded by bytes; a bound below the largest message
// the server accepts would stall on that message. Append and Decode refuse
// bodies over 256 KiB, but another writer of the stream may store up to
// the server's limit: messages that large, between small ones, all come
// back (and Replay reports them as malformed rather than hang).
func TestReplayDeliversTheLargestMessages(t *testing.T) {
	t.Parallel()
	e := startServer(t, jetstream.EmbeddedOptions{Dir: t.TempDir()})
	nc := connect(t, e)
	s := open(t, nc, jetstream.Config{})
	ctx := testContext(t)
	var want []uint64
	for i, id := range []string{"p-small-1", "p-big-1", "p-big-2", "p-small-2"} {
		ev := vote(t, id, 1)
		subject, h, body, err := events.Encode(ev)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(id, "p-big") {
			body, err = json.Marshal(events.VoteCast{
				Revision: 1, Verdict: events.Approve, VerifiedEvidence: []string{"e1"},
				Comment: strings.Repeat("x", int(nc.MaxPayload())-4<<10),
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		seq, err := s.RawPublish(ctx, subject, nats.Header(h), body)
		if err != nil {
			t.Fatalf("publish %d (%d bytes): %v", i, len(body), err)
		}
		want = append(want, seq)
	}
	var got []uint64
	err := s.RawReplay(ctx, 1, func(seq uint64, _ string, _ nats.Header, _ []byte) error {
		got = append(got, seq)
		return nil
	})
	if err != nil || !slices.Equal(got, want) {
		t.Fatalf("raw replay: %v, sequences %v, want %v", err, got, want)
	}
	if err := s.Replay(ctx, 1, func(events.Event) error { return nil }); !errors.Is(err, events.ErrMalformed) {
		t.Fatalf("Replay: %v, want the large event reported malformed", err)
	}
}

// AppendSent puts appends on the wire in the order the caller sends them:
// a chain, each expecting the one before as the stream's last event, is
// stored whole without waiting for acks in between; once a link fails,
// every append chained after it is refused.
func TestAppendSentChains(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := testContext(t)
	if !s.Chains() {
		t.Fatal("a single server's stream should offer chains")
	}
	base, err := s.Append(ctx, nil, vote(t, "p-chain-0", 1))
	if err != nil {
		t.Fatal(err)
	}
	after := func(id string) []events.Expectation { return []events.Expectation{{Stream: true, After: id}} }
	// chain appends evs from goroutines of their own, each sent only after
	// the previous one is on the wire, and returns the results in order.
	chain := func(first []events.Expectation, evs []events.Event) ([]uint64, []error) {
		seqs, errs := make([]uint64, len(evs)), make([]error, len(evs))
		var wg sync.WaitGroup
		prev := make(chan struct{})
		close(prev)
		for i, ev := range evs {
			expect := first
			if i > 0 {
				expect = after(evs[i-1].ID)
			}
			wait, done := prev, make(chan struct{})
			prev = done
			sent := 0
			wg.Go(func() {
				<-wait
				seqs[i], _, errs[i] = s.AppendSent(ctx, expect, func() { sent++; close(done) }, ev)
				if sent > 1 || (sent == 0 && errs[i] == nil) {
					t.Errorf("append %d: sent called %d times (error %v)", i, sent, errs[i])
				}
				if sent == 0 {
					close(done)
				}
			})
		}
		wg.Wait()
		return seqs, errs
	}
	var evs []events.Event
	for i := range 8 {
		evs = append(evs, vote(t, fmt.Sprintf("p-chain-%d", i+1), 1))
	}
	seqs, errs := chain([]events.Expectation{{Stream: true, LastSeq: base}}, evs)
	for i := range evs {
		if errs[i] != nil || seqs[i] != base+1+uint64(i) {
			t.Fatalf("link %d: sequence %d, error %v; want %d", i, seqs[i], errs[i], base+1+uint64(i))
		}
	}
	// Another writer stores an event after the chain's end was decided on:
	// the link expecting that end is refused, and so is every link after it.
	if _, err := s.Append(ctx, nil, vote(t, "p-chain-other", 1)); err != nil {
		t.Fatal(err)
	}
	before, _ := s.LastSequence(ctx)
	more := []events.Event{vote(t, "p-chain-a", 1), vote(t, "p-chain-b", 1), vote(t, "p-chain-c", 1)}
	_, errs = chain(after(evs[len(evs)-1].ID), more)
	for i, err := range errs {
		if !errors.Is(err, events.ErrConflict) {
			t.Errorf("link %d after a broken one: error %v, want ErrConflict", i, err)
		}
	}
	if last, _ := s.LastSequence(ctx); last != before {
		t.Errorf("a broken chain stored something: last sequence %d, want %d", last, before)
	}
}
