package scheduler

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strconv"
	"time"

	"github.com/crossrank/crossrank/cmd/crossrank/consume"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events"
	crjs "github.com/crossrank/crossrank/events/jetstream"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Nudges: a review request with a due date gets, per reviewer, a one-shot
// message schedule in the schedule stream at the due date, as a scheduled
// edition does, so a nudge fires once across replicas and restarts.
//
//   - the feeder reads ReviewersRequested from CROSSRANK and, for each
//     reviewer whose request is still due then, stores a schedule keyed
//     crossrank_schedules.nudge.<proposal>.<reviewer>.<due, unix seconds>;
//   - the firer runs NudgeReviewer with a command id derived from the key.
//
// A replaced due date gets a schedule of its own; the old one still fires
// but the domain decides nothing, as the request is no longer due then.
// An answer before the due date does the same. The domain records at most
// one ReviewNudged per reviewer and due date, and a second firing with the
// same command id is a replay.

// NudgeKind names the nudges' one-shot schedules in the schedule stream.
const NudgeKind = "nudge"

// The nudges' durable consumers, shared by every replica.
const (
	NudgeFeedConsumer = "review-nudge-feed"
	NudgeFireConsumer = "review-nudge-fire"
)

// NudgeCommands is what the nudges need of the command handler
// (*handler.Handler).
type NudgeCommands interface {
	Proposal(ctx context.Context, id string) (*domain.Proposal, error)
	NudgeReviewer(ctx context.Context, c domain.NudgeReviewer) (handler.Result, error)
}

// NudgeConfig configures a Nudger; Commands is required.
type NudgeConfig struct {
	Commands NudgeCommands
	Replicas int          // of the schedule stream, when it is created; default 1
	Logger   *slog.Logger // nil: discard
}

// Nudger feeds and fires the review requests' due dates.
type Nudger struct {
	cfg NudgeConfig
	js  jetstream.JetStream
}

// NewNudger returns a Nudger working through nc.
func NewNudger(nc *nats.Conn, cfg NudgeConfig) (*Nudger, error) {
	if cfg.Commands == nil {
		return nil, errors.New("scheduler: nudges need the command handler")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	return &Nudger{cfg: cfg, js: js}, nil
}

// NudgeCommandID is the command id of nudging reviewer for the due date
// due on proposal: the same for every attempt by every replica.
func NudgeCommandID(proposal, reviewer, due string) string {
	return events.NamedID("crossrank review nudge\x00" + proposal + "\x00" + reviewer + "\x00" + due)
}

// nudgeFired is the body of a nudge's schedule message.
type nudgeFired struct {
	Proposal string `json:"proposal"`
	Reviewer string `json:"reviewer"`
	Due      string `json:"due"`
}

// Run feeds and fires until ctx ends; it returns nil then.
func (n *Nudger) Run(ctx context.Context) error {
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = consume.Run(ctx, n.cfg.Logger, "nudge feed", n.feed)
	}()
	_ = consume.Run(ctx, n.cfg.Logger, "nudge fire", n.fire)
	<-done
	return nil
}

func (n *Nudger) feed(ctx context.Context) error {
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	cons, err := n.js.CreateOrUpdateConsumer(cctx, crjs.StreamName, jetstream.ConsumerConfig{
		Durable:     NudgeFeedConsumer,
		Description: "Crossrank review due dates: sets their message schedules",
		// Requests made before the first run are set too: the proposal's
		// state says what is still due.
		DeliverPolicy: jetstream.DeliverAllPolicy,
		FilterSubject: events.SubjectPrefix + "proposal.*.reviewers_requested",
		AckPolicy:     jetstream.AckExplicitPolicy,
		AckWait:       30 * time.Second,
		MaxDeliver:    -1,
		MaxAckPending: 16,
	})
	if err != nil {
		return err
	}
	return consume.FetchEach(ctx, cons, n.feedOne)
}

// feedOne sets the schedules of one request's due date.
func (n *Nudger) feedOne(ctx context.Context, m jetstream.Msg) {
	log := n.cfg.Logger
	md, err := m.Metadata()
	if err != nil {
		_ = m.Nak()
		return
	}
	ev, err := events.Decode(m.Subject(), events.Header(m.Headers()), m.Data(), md.Sequence.Stream)
	if err != nil {
		log.Error("nudge feed: undecodable event; skipped", "seq", md.Sequence.Stream, "err", err)
		_ = m.Term()
		return
	}
	d, ok := ev.Data.(*events.ReviewersRequested)
	if !ok || d.Due == "" {
		_ = m.Ack()
		return
	}
	if err := n.set(ctx, ev.Subject, d); err != nil {
		log.Warn("nudge feed: failed; it will be retried", "proposal", ev.Subject, "seq", md.Sequence.Stream, "err", err)
		_ = m.NakWithDelay(time.Second)
		return
	}
	_ = m.DoubleAck(ctx)
}

// set stores the schedule of each reviewer the request names whose
// request is still due at its due date and not nudged for it.
func (n *Nudger) set(ctx context.Context, proposal string, d *events.ReviewersRequested) error {
	at, err := time.Parse(time.RFC3339, d.Due)
	if err != nil {
		n.cfg.Logger.Error("nudge feed: due date unreadable; skipped", "proposal", proposal, "due", d.Due)
		return nil
	}
	p, err := n.cfg.Commands.Proposal(ctx, proposal)
	if err != nil {
		return err
	}
	for _, r := range d.Reviewers {
		if p.DueOf(r) != d.Due || p.Nudged[r] == d.Due {
			continue // replaced, cleared or nudged already
		}
		body, err := json.Marshal(nudgeFired{Proposal: proposal, Reviewer: r, Due: d.Due})
		if err != nil {
			return err
		}
		key := proposal + "." + r + "." + strconv.FormatInt(at.Unix(), 10)
		if err := crjs.ScheduleOnce(ctx, n.js, n.cfg.Replicas, NudgeKind, key, NudgeCommandID(proposal, r, d.Due), at, body); err != nil {
			return err
		}
		n.cfg.Logger.Info("review nudge scheduled", "proposal", proposal, "reviewer", r, "due", d.Due)
	}
	return nil
}

func (n *Nudger) fire(ctx context.Context) error {
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if _, err := crjs.ScheduleStream(cctx, n.js, n.cfg.Replicas); err != nil {
		return err
	}
	cons, err := n.js.CreateOrUpdateConsumer(cctx, crjs.ScheduleStreamName, jetstream.ConsumerConfig{
		Durable:       NudgeFireConsumer,
		Description:   "Crossrank review due dates: nudges each unanswered reviewer at the due date",
		DeliverPolicy: jetstream.DeliverAllPolicy, // a due date that passed while every replica was down still nudges
		FilterSubject: crjs.FiredFilter(NudgeKind, 3),
		AckPolicy:     jetstream.AckExplicitPolicy,
		AckWait:       30 * time.Second,
		MaxDeliver:    -1,
		MaxAckPending: 16,
	})
	if err != nil {
		return err
	}
	return consume.FetchEach(ctx, cons, n.fireOne)
}

// fireOne nudges one reviewer, if their request is still due and
// unanswered.
func (n *Nudger) fireOne(ctx context.Context, m jetstream.Msg) {
	log := n.cfg.Logger
	var f nudgeFired
	if err := json.Unmarshal(m.Data(), &f); err != nil || !events.ValidID(f.Proposal) || !events.ValidID(f.Reviewer) {
		log.Error("nudge fire: not a review nudge; skipped", "subject", m.Subject(), "err", err)
		_ = m.Term()
		return
	}
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	res, err := n.cfg.Commands.NudgeReviewer(rctx, domain.NudgeReviewer{CommandID: NudgeCommandID(f.Proposal, f.Reviewer, f.Due),
		Proposal: f.Proposal, Reviewer: f.Reviewer, Due: f.Due})
	switch {
	case errors.Is(err, domain.ErrProposalMissing):
		log.Error("nudge fire: no such proposal; skipped", "proposal", f.Proposal)
		_ = m.Term()
		return
	case err != nil:
		log.Warn("nudge fire: failed; it will be retried", "proposal", f.Proposal, "reviewer", f.Reviewer, "err", err)
		_ = m.NakWithDelay(time.Second)
		return
	}
	log.Info("review nudge fired", "proposal", f.Proposal, "reviewer", f.Reviewer, "due", f.Due,
		"nudged", len(res.EventIDs) > 0 && !res.Replayed)
	_ = m.DoubleAck(rctx)
}
