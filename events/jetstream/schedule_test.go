package jetstream_test

import (
	"context"
	"testing"
	"time"

	crjs "github.com/crossrank/crossrank/events/jetstream"
	"github.com/nats-io/nats.go/jetstream"
)

// scheduleEnv starts an embedded server on dir with a client.
func scheduleEnv(t *testing.T, dir string) (jetstream.JetStream, func()) {
	t.Helper()
	srv, err := crjs.StartEmbedded(crjs.EmbeddedOptions{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	nc, err := srv.Connect("schedule-test")
	if err != nil {
		srv.Shutdown()
		t.Fatal(err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	return js, func() { nc.Close(); srv.Shutdown() }
}

// nextTick waits for the next tick of the schedule named name through the
// durable consumer "ticks", acknowledges it and returns it.
func nextTick(t *testing.T, js jetstream.JetStream, name string, within time.Duration) jetstream.Msg {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	cons, err := js.CreateOrUpdateConsumer(ctx, crjs.ScheduleStreamName, jetstream.ConsumerConfig{
		Durable: "ticks", FilterSubject: crjs.TickSubject(name), AckPolicy: jetstream.AckExplicitPolicy})
	if err != nil {
		t.Fatal(err)
	}
	m, err := cons.Next(jetstream.FetchMaxWait(within))
	if err != nil {
		t.Fatalf("no tick of %s within %v: %v", name, within, err)
	}
	if err := m.DoubleAck(ctx); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestScheduleTicksAndSurvivesRestart: a schedule set in the stream fires
// on its tick subject; setting it again at the same interval keeps it
// (its clock is not restarted), another interval replaces it; and after
// the server restarts on the same directory, it fires again.
func TestScheduleTicksAndSurvivesRestart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	js, stop := scheduleEnv(t, dir)
	if err := crjs.SetSchedule(ctx, js, 1, "test", time.Second); err != nil {
		t.Fatal(err)
	}
	m := nextTick(t, js, "test", 5*time.Second)
	if got := m.Headers().Get("Nats-Scheduler"); got != crjs.ScheduleSubject("test") {
		t.Errorf("tick's Nats-Scheduler = %q, want %q", got, crjs.ScheduleSubject("test"))
	}
	if got := string(m.Data()); got != `{"schedule":"test","every":"1s"}` {
		t.Errorf("tick body %s", got)
	}

	st, err := js.Stream(ctx, crjs.ScheduleStreamName)
	if err != nil {
		t.Fatal(err)
	}
	first, err := st.GetLastMsgForSubject(ctx, crjs.ScheduleSubject("test"))
	if err != nil {
		t.Fatal(err)
	}
	if err := crjs.SetSchedule(ctx, js, 1, "test", time.Second); err != nil {
		t.Fatal(err)
	}
	if again, _ := st.GetLastMsgForSubject(ctx, crjs.ScheduleSubject("test")); again.Sequence != first.Sequence {
		t.Errorf("the same schedule was stored again: sequence %d, then %d", first.Sequence, again.Sequence)
	}
	if err := crjs.SetSchedule(ctx, js, 1, "test", 2*time.Second); err != nil {
		t.Fatal(err)
	}
	replaced, _ := st.GetLastMsgForSubject(ctx, crjs.ScheduleSubject("test"))
	if replaced.Sequence == first.Sequence || replaced.Header.Get("Nats-Schedule") != "@every 2s" {
		t.Errorf("a new interval did not replace the schedule: %d %v", replaced.Sequence, replaced.Header)
	}
	info, _ := st.Info(ctx, jetstream.WithSubjectFilter(crjs.ScheduleSubject("test")))
	if n := info.State.Subjects[crjs.ScheduleSubject("test")]; n != 1 {
		t.Errorf("%d schedule messages, want 1 (the roll-up removes the old)", n)
	}
	before := nextTick(t, js, "test", 5*time.Second)
	stop()

	js, stop = scheduleEnv(t, dir)
	defer stop()
	after := nextTick(t, js, "test", 6*time.Second)
	mb, _ := before.Metadata()
	ma, _ := after.Metadata()
	if ma.Sequence.Stream <= mb.Sequence.Stream {
		t.Errorf("tick after the restart has sequence %d, before %d", ma.Sequence.Stream, mb.Sequence.Stream)
	}
}
