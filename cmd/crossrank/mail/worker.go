package mail

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/crossrank/crossrank/cmd/crossrank/consume"
	"github.com/crossrank/crossrank/cmd/crossrank/delivery"
	"github.com/crossrank/crossrank/events"
	crjs "github.com/crossrank/crossrank/events/jetstream"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/notify"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// The durable consumers every replica shares.
const (
	InstantConsumer    = "mail-instant"
	DigestFireConsumer = "mail-digest-fire"
)

// Inbox is what the mailer reads of the read models (*projections.Store).
type Inbox interface {
	WaitFor(ctx context.Context, seq uint64) error
	InboxAt(ctx context.Context, seq uint64) ([]projections.InboxItem, error)
	InboxBetween(ctx context.Context, user string, after, upto uint64, limit int) ([]projections.InboxItem, error)
}

// Config configures a Worker; Service and Inbox are required.
type Config struct {
	Service *Service
	Inbox   Inbox
	// Replicas of the schedule stream, when it is created; default 1.
	Replicas int
	// RetryBase is the first pause before a failed mail is sent again; it
	// doubles with every attempt up to RetryMax. Defaults 30s and 1h.
	RetryBase, RetryMax time.Duration
	Logger              *slog.Logger // nil: discard
}

// Worker mails inbox items at once and in digests.
type Worker struct {
	cfg Config
	js  jetstream.JetStream
}

// NewWorker returns a Worker working through nc.
func NewWorker(nc *nats.Conn, cfg Config) (*Worker, error) {
	if cfg.Service == nil || cfg.Inbox == nil {
		return nil, errors.New("mail: service and inbox are required")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.RetryBase <= 0 {
		cfg.RetryBase = 30 * time.Second
	}
	if cfg.RetryMax <= 0 {
		cfg.RetryMax = time.Hour
	}
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	return &Worker{cfg: cfg, js: js}, nil
}

// Run mails until ctx ends; it returns nil then.
func (w *Worker) Run(ctx context.Context) error {
	log := w.cfg.Logger
	done := make(chan struct{}, 2)
	go func() { _ = consume.Run(ctx, log, "mail digest feed", w.feedDigests); done <- struct{}{} }()
	go func() { _ = consume.Run(ctx, log, "mail digest", w.fireDigests); done <- struct{}{} }()
	_ = consume.Run(ctx, log, "mail", w.instant)
	<-done
	<-done
	return nil
}

// backoff is the pause after the n-th failed delivery.
func (w *Worker) backoff(n uint64) time.Duration {
	return delivery.Policy{First: w.cfg.RetryBase, Max: w.cfg.RetryMax}.Wait(int(min(n, 64)))
}

func (w *Worker) instant(ctx context.Context) error {
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	cons, err := w.js.CreateOrUpdateConsumer(cctx, crjs.StreamName, jetstream.ConsumerConfig{
		Durable:     InstantConsumer,
		Description: "Crossrank mail: mails the inbox items their users want at once",
		// From the consumer's making on: a server that starts mailing does
		// not mail its whole history.
		DeliverPolicy: jetstream.DeliverNewPolicy,
		FilterSubject: events.SubjectPrefix + ">",
		AckPolicy:     jetstream.AckExplicitPolicy,
		AckWait:       2 * time.Minute,
		MaxDeliver:    -1,
		MaxAckPending: 64,
	})
	if err != nil {
		return err
	}
	return consume.FetchEach(ctx, cons, w.instantOne)
}

// instantOne mails what the event m made.
func (w *Worker) instantOne(ctx context.Context, m jetstream.Msg) {
	md, err := m.Metadata()
	if err != nil {
		_ = m.Nak()
		return
	}
	seq := md.Sequence.Stream
	stop := consume.Heartbeat(m, 2*time.Minute)
	defer stop()
	failed, err := w.mailEvent(ctx, seq)
	switch {
	case err != nil:
		w.cfg.Logger.Warn("mail: failed; it will be retried", "seq", seq, "attempt", md.NumDelivered, "err", err)
		_ = m.NakWithDelay(w.backoff(md.NumDelivered))
	case failed:
		_ = m.NakWithDelay(w.backoff(md.NumDelivered))
	default:
		_ = m.Ack()
	}
}

// mailEvent mails the inbox rows of the event at seq; failed reports
// whether a mail failed (its state says why).
func (w *Worker) mailEvent(ctx context.Context, seq uint64) (failed bool, err error) {
	wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := w.cfg.Inbox.WaitFor(wctx, seq); err != nil {
		return false, err
	}
	rows, err := w.cfg.Inbox.InboxAt(ctx, seq)
	if err != nil {
		return false, err
	}
	for _, row := range rows {
		f, err := w.mailRow(ctx, row)
		if err != nil {
			return false, err
		}
		failed = failed || f
	}
	return failed, nil
}

func (w *Worker) mailRow(ctx context.Context, row projections.InboxItem) (failed bool, err error) {
	s := w.cfg.Service
	a, _, err := s.Book.account(ctx, row.User)
	if err != nil || a.Address == "" || row.Seq <= a.From {
		return false, err
	}
	mode := a.Prefs.ModeOf(row.Kind)
	if mode == notify.ModeNone {
		return false, nil
	}
	d, found, err := s.Book.delivery(ctx, row.User, row.Seq, row.Kind)
	if err != nil || found && (d.State == notify.StateSent || mode == notify.ModeDigest) {
		return false, err
	}
	d = notify.Delivery{Seq: row.Seq, Kind: row.Kind, Mode: mode, State: notify.StatePending, Attempts: d.Attempts, At: s.now()}
	if mode == notify.ModeDigest {
		return false, s.Book.putDelivery(ctx, row.User, d)
	}
	secret, err := s.Book.secret(ctx)
	if err != nil {
		return false, err
	}
	lang := a.Prefs.Lang
	msg, err := s.Compose.Instant(a.Address, lang, row, s.Compose.unsubscribeURL(unsubscribeToken(secret, row.User, row.Kind)))
	if err != nil {
		return false, err
	}
	d.Attempts++
	if err := s.Relay.Send(ctx, msg); errors.Is(err, ErrAfterAccepted) {
		w.cfg.Logger.Warn("mail sent; the relay's session failed after accepting it", "user", row.User, "seq", row.Seq, "kind", row.Kind, "err", err)
	} else if err != nil {
		d.State, d.Error = notify.StateFailed, err.Error()
		w.cfg.Logger.Warn("mail: not sent; it will be retried", "user", row.User, "seq", row.Seq, "kind", row.Kind, "err", err)
		return true, s.Book.putDelivery(ctx, row.User, d)
	}
	d.State, d.Error = notify.StateSent, ""
	w.cfg.Logger.Info("mail sent", "user", row.User, "seq", row.Seq, "kind", row.Kind)
	return false, s.Book.putDelivery(ctx, row.User, d)
}
