package mail

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/crossrank/crossrank/cmd/crossrank/consume"
	"github.com/crossrank/crossrank/events"
	crjs "github.com/crossrank/crossrank/events/jetstream"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/notify"
	"github.com/nats-io/nats.go/jetstream"
)

// DigestKind names the digests' one-shot schedules in the schedule stream:
// crossrank_schedules.mail_digest.<user>.<unix time>.
const DigestKind = "mail_digest"

// maxDigestItems bounds one digest; the rest wait for the next.
const maxDigestItems = 200

// digestDue is the body of a digest's schedule.
type digestDue struct {
	User string    `json:"user"`
	At   time.Time `json:"at"`
}

// feedDigests keeps a schedule at the next digest moment of every account
// that wants a digest: the accounts are watched, so a new choice of hour
// or zone gets its schedule at once. Setting one that is held already
// changes nothing, so every replica may feed.
func (w *Worker) feedDigests(ctx context.Context) error {
	watch, err := w.cfg.Service.Book.accounts.Watch(ctx, "account.*")
	if err != nil {
		return err
	}
	defer watch.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case e, ok := <-watch.Updates():
			if !ok {
				return errors.New("mail: account watch ended")
			}
			if e == nil || e.Operation() != jetstream.KeyValuePut {
				continue
			}
			var a account
			if err := json.Unmarshal(e.Value(), &a); err != nil {
				w.cfg.Logger.Error("mail: unreadable account; skipped", "key", e.Key(), "err", err)
				continue
			}
			if !a.wantsDigest() {
				continue
			}
			user := strings.TrimPrefix(e.Key(), "account.")
			if err := w.scheduleDigest(ctx, user, a.Prefs.NextDigest(w.cfg.Service.now())); err != nil {
				return err
			}
		}
	}
}

func (w *Worker) scheduleDigest(ctx context.Context, user string, at time.Time) error {
	body, err := json.Marshal(digestDue{User: user, At: at.UTC()})
	if err != nil {
		return err
	}
	key := user + "." + strconv.FormatInt(at.Unix(), 10)
	// The server fires by its own clock: as far from now as at is from the
	// service's clock (the same clock, but for a test's).
	wall := time.Now().Add(at.Sub(w.cfg.Service.now()))
	return crjs.ScheduleOnce(ctx, w.js, w.cfg.Replicas, DigestKind, key, "mail-digest-"+key, wall, body)
}

func (w *Worker) fireDigests(ctx context.Context) error {
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if _, err := crjs.ScheduleStream(cctx, w.js, w.cfg.Replicas); err != nil {
		return err
	}
	cons, err := w.js.CreateOrUpdateConsumer(cctx, crjs.ScheduleStreamName, jetstream.ConsumerConfig{
		Durable:       DigestFireConsumer,
		Description:   "Crossrank mail: sends each daily digest at its moment",
		DeliverPolicy: jetstream.DeliverAllPolicy, // a digest due while every replica was down still goes
		FilterSubject: crjs.FiredFilter(DigestKind, 2),
		AckPolicy:     jetstream.AckExplicitPolicy,
		AckWait:       2 * time.Minute,
		MaxDeliver:    -1,
		MaxAckPending: 16,
	})
	if err != nil {
		return err
	}
	return consume.FetchEach(ctx, cons, w.fireDigest)
}

// fireDigest sends one digest and schedules the next.
func (w *Worker) fireDigest(ctx context.Context, m jetstream.Msg) {
	var due digestDue
	if err := json.Unmarshal(m.Data(), &due); err != nil || !events.ValidID(due.User) {
		w.cfg.Logger.Error("mail: not a digest; skipped", "subject", m.Subject(), "err", err)
		_ = m.Term()
		return
	}
	md, err := m.Metadata()
	if err != nil {
		_ = m.Nak()
		return
	}
	if err := w.digest(ctx, due); err != nil {
		w.cfg.Logger.Warn("mail: digest not sent; it will be retried", "user", due.User, "attempt", md.NumDelivered, "err", err)
		_ = m.NakWithDelay(w.backoff(md.NumDelivered))
		return
	}
	_ = m.DoubleAck(ctx)
}

func (w *Worker) digest(ctx context.Context, due digestDue) error {
	s := w.cfg.Service
	a, _, err := s.Book.account(ctx, due.User)
	if err != nil {
		return err
	}
	// A schedule of an hour or zone since changed is not this account's
	// digest: the feed has set the one that is.
	if !a.wantsDigest() || !a.Prefs.NextDigest(due.At.Add(-time.Second)).Equal(due.At) {
		return nil
	}
	after := max(a.From, a.DigestUpTo)
	rows, err := w.cfg.Inbox.InboxBetween(ctx, due.User, after, 1<<62, maxDigestItems)
	if err != nil {
		return err
	}
	var items []projections.InboxItem
	upto := after
	for _, r := range rows {
		upto = max(upto, r.Seq)
		if a.Prefs.ModeOf(r.Kind) == notify.ModeDigest {
			items = append(items, r)
		}
	}
	if len(items) > 0 {
		secret, err := s.Book.secret(ctx)
		if err != nil {
			return err
		}
		msg, err := s.Compose.Digest(a.Address, a.Prefs.Lang, items, s.Compose.unsubscribeURL(unsubscribeToken(secret, due.User, notify.DigestKind)))
		if err != nil {
			return err
		}
		if err := s.Relay.Send(ctx, msg); errors.Is(err, ErrAfterAccepted) {
			w.cfg.Logger.Warn("mail digest sent; the relay's session failed after accepting it", "user", due.User, "err", err)
		} else if err != nil {
			w.markDigest(ctx, due.User, items, notify.StateFailed, err.Error())
			return err
		}
		w.markDigest(ctx, due.User, items, notify.StateSent, "")
		w.cfg.Logger.Info("mail digest sent", "user", due.User, "items", len(items))
	}
	if err := s.Book.update(ctx, due.User, func(a *account) error {
		a.DigestUpTo = max(a.DigestUpTo, upto)
		return nil
	}); err != nil {
		return err
	}
	return w.scheduleDigest(ctx, due.User, a.Prefs.NextDigest(due.At))
}

// markDigest records the state of the items of a digest; the state is a
// view, so failing to record it does not hold the digest back.
func (w *Worker) markDigest(ctx context.Context, user string, items []projections.InboxItem, state, why string) {
	s := w.cfg.Service
	for _, r := range items {
		d, _, _ := s.Book.delivery(ctx, user, r.Seq, r.Kind)
		d = notify.Delivery{Seq: r.Seq, Kind: r.Kind, Mode: notify.ModeDigest, State: state, Error: why, Attempts: d.Attempts + 1, At: s.now()}
		if err := s.Book.putDelivery(ctx, user, d); err != nil {
			w.cfg.Logger.Warn("mail: digest state not recorded", "user", user, "err", err)
		}
	}
}
