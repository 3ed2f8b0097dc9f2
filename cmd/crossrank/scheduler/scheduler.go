// Package scheduler fires scheduled editions. The timer is a JetStream
// message schedule in the schedule stream (CROSSRANK_SCHEDULES), not a
// timer in this process, so a schedule survives restarts and fires once
// however many replicas run.
//
// Two durable consumers, shared by every replica:
//
//   - the feeder reads EditionScheduled and EditionScheduleCanceled from
//     CROSSRANK: for a pending schedule it stores a one-shot message
//     schedule ("Nats-Schedule: @at …", Nats-Msg-Id the schedule id) that
//     fires at the moment; for a canceled one it purges that message, so it
//     never fires.
//   - the firer reads the fired messages and runs FireSchedule, as the
//     scheduling publisher, with a command id derived from the schedule.
//
// Exactly one effect per schedule: the domain does nothing for a schedule
// that is no longer pending, and a second FireSchedule with the same
// command id is a replay. A schedule whose message was missed (purged by
// hand, say) still fires the next time its event is read again.
package scheduler

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"time"

	"github.com/crossrank/crossrank/cmd/crossrank/consume"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events"
	crjs "github.com/crossrank/crossrank/events/jetstream"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Kind names the scheduled editions' one-shot schedules in the schedule
// stream: crossrank_schedules.edition.<ranking>.<schedule>.
const Kind = "edition"

// FeedConsumer and FireConsumer are the durable consumers every replica
// shares.
const (
	FeedConsumer = "edition-schedule-feed"
	FireConsumer = "edition-schedule-fire"
)

// Commands is what the scheduler needs of the command handler
// (*handler.Handler).
type Commands interface {
	Edition(ctx context.Context, ranking string) (*domain.Edition, error)
	FireSchedule(ctx context.Context, c domain.FireSchedule) (handler.Result, error)
}

// PublishContext is what firing needs of the read models
// (*projections.Store), as a publish does.
type PublishContext interface {
	AuditHead(ctx context.Context) (head string, seq uint64, err error)
	CrossValidated(ctx context.Context, ranking string) ([]string, error)
}

// Config configures a Scheduler; Commands and Reads are required.
type Config struct {
	Commands Commands
	Reads    PublishContext
	Replicas int          // of the schedule stream, when it is created; default 1
	Logger   *slog.Logger // nil: discard
}

// Scheduler feeds and fires the scheduled editions.
type Scheduler struct {
	cfg Config
	js  jetstream.JetStream
}

// New returns a Scheduler working through nc.
func New(nc *nats.Conn, cfg Config) (*Scheduler, error) {
	if cfg.Commands == nil || cfg.Reads == nil {
		return nil, errors.New("scheduler: commands and read models are required")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	return &Scheduler{cfg: cfg, js: js}, nil
}

// FireCommandID is the command id of firing a schedule: the same for every
// attempt by every replica.
func FireCommandID(ranking, schedule string) string {
	return events.NamedID("crossrank scheduled edition\x00" + ranking + "\x00" + schedule)
}

// fired is the body of a schedule's message, which the server copies into
// the message it fires.
type fired struct {
	Ranking  string `json:"ranking"`
	Schedule string `json:"schedule"`
	At       string `json:"at"`
}

// Run feeds and fires until ctx ends; it returns nil then. Both consumers
// ride out NATS outages, retrying with a pause.
func (s *Scheduler) Run(ctx context.Context) error {
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = consume.Run(ctx, s.cfg.Logger, "schedule feed", s.feed)
	}()
	_ = consume.Run(ctx, s.cfg.Logger, "schedule fire", s.fire)
	<-done
	return nil
}

func (s *Scheduler) feed(ctx context.Context) error {
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	cons, err := s.js.CreateOrUpdateConsumer(cctx, crjs.StreamName, jetstream.ConsumerConfig{
		Durable:     FeedConsumer,
		Description: "Crossrank scheduled editions: sets and cancels their message schedules",
		// Schedules made before the first run are set too: the edition's
		// state, not the consumer's start, says what is pending.
		DeliverPolicy: jetstream.DeliverAllPolicy,
		FilterSubjects: []string{events.SubjectPrefix + "edition.*.scheduled",
			events.SubjectPrefix + "edition.*.schedule_canceled"},
		AckPolicy:     jetstream.AckExplicitPolicy,
		AckWait:       30 * time.Second,
		MaxDeliver:    -1,
		MaxAckPending: 16,
	})
	if err != nil {
		return err
	}
	return consume.FetchEach(ctx, cons, s.feedOne)
}

// feedOne sets or removes the message schedule of one event's schedule.
func (s *Scheduler) feedOne(ctx context.Context, m jetstream.Msg) {
	log := s.cfg.Logger
	md, err := m.Metadata()
	if err != nil {
		_ = m.Nak()
		return
	}
	ev, err := events.Decode(m.Subject(), events.Header(m.Headers()), m.Data(), md.Sequence.Stream)
	if err != nil {
		log.Error("schedule feed: undecodable event; skipped", "seq", md.Sequence.Stream, "err", err)
		_ = m.Term()
		return
	}
	ranking := ev.Subject
	switch d := ev.Data.(type) {
	case *events.EditionScheduleCanceled:
		err = crjs.Unschedule(ctx, s.js, Kind, ranking+"."+d.Schedule)
	case *events.EditionScheduled:
		err = s.set(ctx, ranking, d.Schedule)
	default:
		_ = m.Ack()
		return
	}
	if err != nil {
		log.Warn("schedule feed: failed; it will be retried", "ranking", ranking, "seq", md.Sequence.Stream, "err", err)
		_ = m.NakWithDelay(time.Second)
		return
	}
	_ = m.DoubleAck(ctx)
}

// set stores the message schedule of a schedule that is still pending.
func (s *Scheduler) set(ctx context.Context, ranking, id string) error {
	ed, err := s.cfg.Commands.Edition(ctx, ranking)
	if err != nil {
		return err
	}
	sc := ed.Schedules[id]
	if sc == nil || sc.State != domain.SchedulePending {
		return nil // fired, failed or canceled already
	}
	body, err := json.Marshal(fired{Ranking: ranking, Schedule: id, At: sc.At})
	if err != nil {
		return err
	}
	if err := crjs.ScheduleOnce(ctx, s.js, s.cfg.Replicas, Kind, ranking+"."+id, id, sc.AtTime, body); err != nil {
		return err
	}
	s.cfg.Logger.Info("edition scheduled", "ranking", ranking, "schedule", id, "at", sc.AtTime.UTC())
	return nil
}

func (s *Scheduler) fire(ctx context.Context) error {
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if _, err := crjs.ScheduleStream(cctx, s.js, s.cfg.Replicas); err != nil {
		return err
	}
	cons, err := s.js.CreateOrUpdateConsumer(cctx, crjs.ScheduleStreamName, jetstream.ConsumerConfig{
		Durable:       FireConsumer,
		Description:   "Crossrank scheduled editions: publishes each at its moment",
		DeliverPolicy: jetstream.DeliverAllPolicy, // a schedule that fired while every replica was down still runs
		FilterSubject: crjs.FiredFilter(Kind, 2),
		AckPolicy:     jetstream.AckExplicitPolicy,
		AckWait:       30 * time.Second,
		MaxDeliver:    -1,
		MaxAckPending: 4,
	})
	if err != nil {
		return err
	}
	return consume.FetchEach(ctx, cons, s.fireOne)
}

// fireOne publishes one scheduled edition (or records why not).
func (s *Scheduler) fireOne(ctx context.Context, m jetstream.Msg) {
	log := s.cfg.Logger
	var f fired
	if err := json.Unmarshal(m.Data(), &f); err != nil || !events.ValidID(f.Ranking) || !events.ValidID(f.Schedule) {
		log.Error("schedule fire: not a scheduled edition; skipped", "subject", m.Subject(), "err", err)
		_ = m.Term()
		return
	}
	c := domain.FireSchedule{CommandID: FireCommandID(f.Ranking, f.Schedule), Ranking: f.Ranking, Schedule: f.Schedule}
	var err error
	if c.AuditHead, c.AuditSeq, err = s.cfg.Reads.AuditHead(ctx); err == nil {
		c.Candidates, err = s.cfg.Reads.CrossValidated(ctx, f.Ranking)
	}
	if err != nil {
		log.Warn("schedule fire: read models failed; it will be retried", "schedule", f.Schedule, "err", err)
		_ = m.NakWithDelay(time.Second)
		return
	}
	// Record even if we are stopping: the moment has come.
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	res, err := s.cfg.Commands.FireSchedule(rctx, c)
	switch {
	case errors.Is(err, domain.ErrScheduleMissing), errors.Is(err, domain.ErrRankingMissing):
		log.Error("schedule fire: no such schedule; skipped", "ranking", f.Ranking, "schedule", f.Schedule)
		_ = m.Term()
		return
	case err != nil:
		log.Warn("schedule fire: failed; it will be retried", "ranking", f.Ranking, "schedule", f.Schedule, "err", err)
		_ = m.NakWithDelay(time.Second)
		return
	}
	log.Info("scheduled edition fired", "ranking", f.Ranking, "schedule", f.Schedule, "sequence", res.Sequence,
		"events", len(res.EventIDs), "replayed", res.Replayed)
	_ = m.DoubleAck(rctx)
}
