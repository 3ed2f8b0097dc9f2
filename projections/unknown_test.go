package projections_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/projections"
	"github.com/nats-io/nats.go"
)

// TestUnknownTypeStopsRun: an event of a type outside the catalog stops
// the runner with an error naming its sequence; nothing after it is
// applied and the checkpoint stays just before it. A rebuild fails the same
// way and leaves the existing models alone.
func TestUnknownTypeStopsRun(t *testing.T) {
	t.Parallel()
	env := synthetic(t, 300)
	ctx := testContext(t)
	path := filepath.Join(t.TempDir(), "read.db")
	if _, err := projections.Rebuild(ctx, env.Store, path); err != nil {
		t.Fatal(err)
	}
	good, _ := env.Store.LastSequence(ctx)

	// A message any NATS client could have published: proper CloudEvents
	// headers, a type this build does not know.
	now := time.Now().UTC()
	id := events.NewID(now)
	h := nats.Header{}
	for k, v := range map[string]string{
		events.HeaderSpecVersion: events.SpecVersion, events.HeaderID: id, events.HeaderSource: "/elsewhere",
		events.HeaderType: "crossrank.proposal.bogus.v1", events.HeaderSubject: "p-bogus",
		events.HeaderTime: now.Format(time.RFC3339Nano), events.HeaderContentType: events.ContentType,
		events.HeaderActor: "editor", events.HeaderMsgID: id,
	} {
		h.Set(k, v)
	}
	bogus, err := env.Store.RawPublish(ctx, "crossrank.proposal.p-bogus.bogus", h, []byte(`{"what":"a future event"}`))
	if err != nil {
		t.Fatal(err)
	}
	if bogus != good+1 {
		t.Fatalf("bogus event at %d, want %d", bogus, good+1)
	}
	// Valid events after it must not be applied either.
	for i := range 3 {
		ev, err := events.New(events.NewID(now), now, "system", "gpu-cloud",
			&events.WebhookDelivered{URL: "https://hooks.example.com/", Ranking: "gpu-cloud", Edition: i + 1, Status: 200, Attempts: 1})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := env.Store.Append(ctx, nil, ev); err != nil {
			t.Fatal(err)
		}
	}

	s := open(t, path)
	before := dump(t, s)
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx, env.Store, nil) }()
	select {
	case err = <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("Run did not stop at the unknown event")
	}
	wantSeq := fmt.Sprintf("seq %d", bogus)
	if !errors.Is(err, events.ErrUnknownType) || !namesSeq(err, bogus) {
		t.Fatalf("Run returned %v; want ErrUnknownType naming %q", err, wantSeq)
	}
	t.Logf("Run: %v", err)
	if seq, _ := s.Checkpoint(); seq != good {
		t.Errorf("checkpoint %d, want %d (just before the unknown event)", seq, good)
	}
	checkExactlyOnce(t, s, good)
	if got := dump(t, s); got != before {
		t.Errorf("models changed although nothing after %d may be applied: %s", good, diff(before, got))
	}
	// A restarted runner stops at the same place.
	runCtx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := s.Run(runCtx, env.Store, nil); !namesSeq(err, bogus) {
		t.Errorf("second Run returned %v; want the same error", err)
	}
	s.Close()

	// Rebuild refuses too, naming the sequence, and keeps the old file.
	if _, err := projections.Rebuild(ctx, env.Store, path); !namesSeq(err, bogus) {
		t.Fatalf("Rebuild returned %v; want an error naming %q", err, wantSeq)
	}
	if got := dump(t, open(t, path)); got != before {
		t.Errorf("a failed rebuild changed the existing models: %s", diff(before, got))
	}
	if leftovers, _ := filepath.Glob(path + ".rebuild-*"); len(leftovers) > 0 {
		t.Errorf("failed rebuild left %v behind", leftovers)
	}
	if _, err := projections.Verify(ctx, env.Store, nil); !namesSeq(err, bogus) {
		t.Errorf("Verify returned %v; want an error naming %q", err, wantSeq)
	}
}

// namesSeq reports whether err says "seq <n>".
func namesSeq(err error, n uint64) bool {
	return err != nil && regexp.MustCompile(fmt.Sprintf(`\bseq %d\b`, n)).MatchString(err.Error())
}

// TestUnprojectableEventStopsRun: an event of a known type whose rows the
// read models refuse (here a second EntryCreated for an entry, which a
// writer outside the domain could append) stops the runner with an error
// naming its sequence, instead of being retried forever.
func TestUnprojectableEventStopsRun(t *testing.T) {
	t.Parallel()
	env := synthetic(t, 300)
	ctx := testContext(t)
	var created events.Event
	for _, ev := range replayAll(t, env.Store) {
		if _, ok := ev.Data.(*events.EntryCreated); ok {
			created = ev
			break
		}
	}
	now := time.Now()
	again, err := events.New(events.NewID(now), now, "intruder", created.Subject, created.Data)
	if err != nil {
		t.Fatal(err)
	}
	seq, err := env.Store.Append(ctx, nil, again)
	if err != nil {
		t.Fatal(err)
	}
	s := open(t, filepath.Join(t.TempDir(), "read.db"))
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx, env.Store, nil) }()
	select {
	case err = <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("Run kept retrying an event it cannot project")
	}
	if !namesSeq(err, seq) {
		t.Fatalf("Run returned %v; want an error naming seq %d", err, seq)
	}
	t.Logf("Run: %v", err)
	checkExactlyOnce(t, s, seq-1)
}
