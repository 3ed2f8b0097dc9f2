package jetstream_test

import (
	"context"
	"errors"
	"testing"
	"time"

	crjs "github.com/crossrank/crossrank/events/jetstream"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// TestScheduleOnceFiresOnceAndUnschedules: a one-shot schedule set twice
// (a redelivered event) is one message and fires once, with its body, on
// its fired subject, after which it is gone and setting it again does
// nothing; one unscheduled before its moment never fires.
func TestScheduleOnceFiresOnceAndUnschedules(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	js, stop := scheduleEnv(t, t.TempDir())
	defer stop()
	at := time.Now().Add(1500 * time.Millisecond)
	for range 2 {
		if err := crjs.ScheduleOnce(ctx, js, 1, "job", "a.one", "one", at, []byte(`{"n":1}`)); err != nil {
			t.Fatal(err)
		}
	}
	if err := crjs.ScheduleOnce(ctx, js, 1, "job", "a.two", "two", at, []byte(`{"n":2}`)); err != nil {
		t.Fatal(err)
	}
	st, err := js.Stream(ctx, crjs.ScheduleStreamName)
	if err != nil {
		t.Fatal(err)
	}
	info, err := st.Info(ctx, jetstream.WithSubjectFilter(crjs.OnceSubject("job", "a.one")))
	if err != nil || info.State.Subjects[crjs.OnceSubject("job", "a.one")] != 1 {
		t.Fatalf("schedule messages of a.one after setting it twice: %v %v, want 1", info.State.Subjects, err)
	}
	if err := crjs.Unschedule(ctx, js, "job", "a.two"); err != nil {
		t.Fatal(err)
	}

	cons, err := js.CreateOrUpdateConsumer(ctx, crjs.ScheduleStreamName, jetstream.ConsumerConfig{
		Durable: "fired", FilterSubject: crjs.FiredFilter("job", 2), AckPolicy: jetstream.AckExplicitPolicy})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		m, err := cons.Next(jetstream.FetchMaxWait(time.Second))
		if errors.Is(err, jetstream.ErrNoMessages) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, nats.ErrTimeout) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if time.Now().Before(at.Truncate(time.Second)) {
			t.Errorf("fired at %v, before its moment %v", time.Now(), at)
		}
		got = append(got, m.Subject()+" "+string(m.Data()))
		_ = m.Ack()
	}
	if len(got) != 1 || got[0] != crjs.FiredSubject("job", "a.one")+` {"n":1}` {
		t.Fatalf("fired %q, want a.one's once", got)
	}
	if _, err := st.GetLastMsgForSubject(ctx, crjs.OnceSubject("job", "a.one")); !errors.Is(err, jetstream.ErrMsgNotFound) {
		t.Errorf("a.one's schedule message after it fired: %v, want gone", err)
	}
	// Set again after it fired (an event read again much later): nothing.
	if err := crjs.ScheduleOnce(ctx, js, 1, "job", "a.one", "one-again", time.Now().Add(time.Second), []byte(`{}`)); err != nil {
		t.Fatal(err)
	}
	if _, err := st.GetLastMsgForSubject(ctx, crjs.OnceSubject("job", "a.one")); !errors.Is(err, jetstream.ErrMsgNotFound) {
		t.Errorf("a.one set again after it fired: %v, want nothing stored", err)
	}
}

// TestScheduleOncePastFiresAtOnce: a moment already past (a schedule set
// again after every replica was down through it) fires at once.
func TestScheduleOncePastFiresAtOnce(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	js, stop := scheduleEnv(t, t.TempDir())
	defer stop()
	if err := crjs.ScheduleOnce(ctx, js, 1, "job", "late", "late", time.Now().Add(-time.Hour), []byte(`{}`)); err != nil {
		t.Fatal(err)
	}
	cons, err := js.CreateOrUpdateConsumer(ctx, crjs.ScheduleStreamName, jetstream.ConsumerConfig{
		Durable: "fired", FilterSubject: crjs.FiredSubject("job", "late"), AckPolicy: jetstream.AckExplicitPolicy})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if _, err := cons.Next(jetstream.FetchMaxWait(5 * time.Second)); err != nil {
		t.Fatalf("a past moment did not fire: %v", err)
	}
	t.Logf("fired %s after it was set", time.Since(start).Round(time.Millisecond))
}
