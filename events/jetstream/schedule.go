package jetstream

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// ScheduleStreamName is the stream that holds Crossrank's timed work: one
// JetStream message schedule per kind of work, and the ticks the server
// publishes from them.
//
// It is a stream of its own, not a part of CROSSRANK: a stream that allows
// message schedules must allow roll-ups and purges and must discard old
// messages when full (the server forces all three), while CROSSRANK denies
// purges and discards new ones, so that no event is ever lost. What a tick
// triggers is an ordinary command, whose events go to CROSSRANK.
const ScheduleStreamName = "CROSSRANK_SCHEDULES"

// SchedulePrefix begins every subject of the schedule stream; it does not
// overlap CROSSRANK's "crossrank.>".
const SchedulePrefix = "crossrank_schedules."

// ScheduleSubject is the subject of the schedule named name: one message
// with the Nats-Schedule headers, which the server keeps and fires.
func ScheduleSubject(name string) string { return SchedulePrefix + name }

// TickSubject is where the schedule named name fires: the server stores
// one message there per tick, replacing the one before (a roll-up), so at
// most one tick waits for a consumer that was away.
func TickSubject(name string) string { return SchedulePrefix + name + ".tick" }

// ScheduleStreamConfig returns the configuration of the schedule stream.
func ScheduleStreamConfig(replicas int) jetstream.StreamConfig {
	return jetstream.StreamConfig{
		Name:              ScheduleStreamName,
		Description:       "Crossrank timed work: message schedules (Nats-Schedule) and their ticks",
		Subjects:          []string{SchedulePrefix + ">"},
		Storage:           jetstream.FileStorage,
		Retention:         jetstream.LimitsPolicy,
		Replicas:          max(replicas, 1),
		AllowMsgSchedules: true,
		// What the server requires of a stream with schedules; the roll-ups
		// keep one schedule message and one tick per subject.
		AllowRollup: true,
		DenyPurge:   false,
		Discard:     jetstream.DiscardOld,
		Duplicates:  DuplicateWindow,
	}
}

// ScheduleStream returns the schedule stream, creating it when it is
// missing. It never updates a stream that exists: nats-server 2.15.2
// writes a stream's stored config on an update while a consumer being
// added to the same stream reads it, unlocked (the race detector reports
// it when two workers start at once, as serve's schedulers, the nudger and
// the mail digests do). Creating it with the same config twice is no
// update: the server answers with the stream that exists.
func ScheduleStream(ctx context.Context, js jetstream.JetStream, replicas int) (jetstream.Stream, error) {
	cfg := ScheduleStreamConfig(replicas)
	st, err := js.Stream(ctx, cfg.Name)
	if err == nil || !errors.Is(err, jetstream.ErrStreamNotFound) {
		return st, err
	}
	st, err = js.CreateStream(ctx, cfg)
	if errors.Is(err, jetstream.ErrStreamNameAlreadyInUse) {
		return js.Stream(ctx, cfg.Name)
	}
	return st, err
}

// SetSchedule makes the schedule stream (created if missing) hold a
// schedule named name that fires every interval on TickSubject(name).
//
// A schedule that already fires at that interval is left alone: storing
// it again would restart its clock, and replicas that restart more often
// than the interval would then never see a tick. Otherwise the new
// schedule replaces the old (a roll-up on its subject). Two replicas
// setting it at once are told apart by the subject's last sequence; the
// one that loses finds the other's schedule, and keeps it.
func SetSchedule(ctx context.Context, js jetstream.JetStream, replicas int, name string, every time.Duration) error {
	if every < time.Second {
		return fmt.Errorf("schedule %s: every %v: the server fires at most once a second", name, every)
	}
	st, err := ScheduleStream(ctx, js, replicas)
	if err != nil {
		return fmt.Errorf("schedule stream: %w", err)
	}
	subject, pattern := ScheduleSubject(name), "@every "+every.String()
	var last uint64
	m, err := st.GetLastMsgForSubject(ctx, subject)
	switch {
	case errors.Is(err, jetstream.ErrMsgNotFound):
	case err != nil:
		return fmt.Errorf("schedule %s: %w", name, err)
	case m.Header.Get(jetstream.ScheduleHeader) == pattern && m.Header.Get(jetstream.ScheduleTargetHeader) == TickSubject(name):
		return nil
	default:
		last = m.Sequence
	}
	// The body travels with each tick: a reader of the stream sees what
	// fired. The roll-up removes the schedule this one replaces.
	msg := nats.NewMsg(subject)
	msg.Data = fmt.Appendf(nil, `{"schedule":%q,"every":%q}`, name, every.String())
	msg.Header.Set(jetstream.MsgRollup, jetstream.MsgRollupSubject)
	_, err = js.PublishMsg(ctx, msg,
		jetstream.WithScheduleEvery(every), jetstream.WithScheduleTarget(TickSubject(name)), jetstream.WithScheduleRollup(),
		jetstream.WithExpectLastSequencePerSubject(last))
	var apiErr *jetstream.APIError
	if errors.As(err, &apiErr) && (apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequence ||
		apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequenceConstant) {
		return nil // another replica set it a moment ago
	}
	if err != nil {
		return fmt.Errorf("schedule %s: %w", name, err)
	}
	return nil
}
