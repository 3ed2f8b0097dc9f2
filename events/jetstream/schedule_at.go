package jetstream

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// A one-shot schedule ("@at") in the schedule stream: one message on
// OnceSubject(kind, key) that the server fires once, at its moment, onto
// FiredSubject(kind, key), and then removes. Each one has a subject of its
// own, so two never replace each other and cancelling one is a purge of its
// subject.

// OnceSubject is the subject of the one-shot schedule key of a kind of work.
func OnceSubject(kind, key string) string { return SchedulePrefix + kind + "." + key }

// FiredSubject is where the one-shot schedule key fires.
func FiredSubject(kind, key string) string { return OnceSubject(kind, key) + ".fired" }

// FiredFilter matches every firing of kind's one-shot schedules whose keys
// have tokens tokens.
func FiredFilter(kind string, tokens int) string {
	s := SchedulePrefix + kind
	for range tokens {
		s += ".*"
	}
	return s + ".fired"
}

// ScheduleOnce makes the schedule stream (created if missing) hold a
// one-shot schedule that fires body on FiredSubject(kind, key) at at; a
// moment already past fires at once. msgID deduplicates a schedule set
// twice within the duplicate window; beyond it, a schedule whose message
// is still held, or that has fired already, is left alone.
func ScheduleOnce(ctx context.Context, js jetstream.JetStream, replicas int, kind, key, msgID string, at time.Time, body []byte) error {
	st, err := ScheduleStream(ctx, js, replicas)
	if err != nil {
		return fmt.Errorf("schedule stream: %w", err)
	}
	for _, subject := range []string{OnceSubject(kind, key), FiredSubject(kind, key)} {
		_, err := st.GetLastMsgForSubject(ctx, subject)
		switch {
		case err == nil:
			return nil // held or fired already
		case !errors.Is(err, jetstream.ErrMsgNotFound):
			return fmt.Errorf("schedule %s %s: %w", kind, key, err)
		}
	}
	msg := nats.NewMsg(OnceSubject(kind, key))
	msg.Data = body
	if _, err := js.PublishMsg(ctx, msg, jetstream.WithMsgID(msgID),
		jetstream.WithScheduleAt(at), jetstream.WithScheduleTarget(FiredSubject(kind, key))); err != nil {
		return fmt.Errorf("schedule %s %s: %w", kind, key, err)
	}
	return nil
}

// Unschedule removes a one-shot schedule that has not fired, so that it
// never does; one that is gone already is no error.
func Unschedule(ctx context.Context, js jetstream.JetStream, kind, key string) error {
	st, err := js.Stream(ctx, ScheduleStreamName)
	if errors.Is(err, jetstream.ErrStreamNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := st.Purge(ctx, jetstream.WithPurgeSubject(OnceSubject(kind, key))); err != nil {
		return fmt.Errorf("unschedule %s %s: %w", kind, key, err)
	}
	return nil
}
