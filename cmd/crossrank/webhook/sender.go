package webhook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/crossrank/crossrank/cmd/crossrank/consume"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	crjs "github.com/crossrank/crossrank/events/jetstream"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// FilterSubject selects the events a sender delivers.
const FilterSubject = events.SubjectPrefix + "edition.*.published"

// Config configures a Sender. URL is required; the zero value of every
// other field has a working default, noted on the field.
type Config struct {
	URL string
	// Secret signs each delivery (see Key): "whsec_<base64 key>", or a
	// plain secret (deprecated); empty: unsigned.
	Secret string
	// Client posts the deliveries; nil: 10-second timeout, no redirects.
	Client *http.Client
	// MaxAttempts per edition before it is recorded as failed; default 8.
	MaxAttempts int
	// Backoff is the wait before the second attempt; it doubles for each
	// further one, up to MaxBackoff. Defaults 1s and 5 minutes.
	Backoff    time.Duration
	MaxBackoff time.Duration
	// AckWait is how long the server waits for an acknowledgement before
	// it redelivers to another sender (a crashed one never answers); the
	// sender reports progress well within it. Default 30s.
	AckWait time.Duration
	Logger  *slog.Logger // nil: discard
	Now     func() time.Time
}

// Sender delivers editions to one URL.
type Sender struct {
	cfg Config
	key []byte // the signing key; nil: unsigned
	// legacy: the secret is plain, so X-Crossrank-Signature is sent too.
	legacy bool
	js     jetstream.JetStream
	store  events.Store
	agg    events.Aggregate
	name   string // the durable consumer
	shown  string // the URL as logs and records show it
}

// Check reports what is wrong with a webhook's URL or secret, if anything.
func Check(url, secret string) error {
	if err := domain.CheckURL("webhook", url); err != nil || url == "" {
		return fmt.Errorf("webhook: %q is not an http(s) URL", Redact(url))
	}
	if secret != "" {
		if _, _, err := Key(secret); err != nil {
			return err
		}
	}
	return nil
}

// New returns a sender for cfg.URL reading the stream through nc and
// recording deliveries in store.
func New(nc *nats.Conn, store events.Store, cfg Config) (*Sender, error) {
	if err := Check(cfg.URL, cfg.Secret); err != nil {
		return nil, err
	}
	if cfg.Client == nil {
		cfg.Client = &http.Client{Timeout: 10 * time.Second,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	}
	if cfg.MaxAttempts <= 0 {
		cfg.MaxAttempts = 8
	}
	if cfg.Backoff <= 0 {
		cfg.Backoff = time.Second
	}
	if cfg.MaxBackoff <= 0 {
		cfg.MaxBackoff = 5 * time.Minute
	}
	if cfg.AckWait <= 0 {
		cfg.AckWait = 30 * time.Second
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	var key []byte
	var legacy bool
	if cfg.Secret != "" {
		var err error
		if key, legacy, err = Key(cfg.Secret); err != nil {
			return nil, err
		}
	}
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	h := hashOf(cfg.URL)
	return &Sender{cfg: cfg, key: key, legacy: legacy, js: js, store: store, shown: Redact(cfg.URL),
		agg: domain.WebhookID(AggregateID(cfg.URL)), name: "webhook-" + h[:16]}, nil
}

// Redact returns u without user info, query or fragment, which may hold
// secrets: what logs and the audit trail show.
func Redact(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return "(unparseable URL)"
	}
	p.User, p.RawQuery, p.Fragment = nil, "", ""
	return p.String()
}

// Run delivers editions until ctx ends; it returns nil then. It rides out
// NATS outages, retrying with a pause.
func (s *Sender) Run(ctx context.Context) error {
	return consume.Run(ctx, s.cfg.Logger.With("url", s.shown), "webhook", s.consume)
}

func (s *Sender) consume(ctx context.Context) error {
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	cons, err := s.js.CreateOrUpdateConsumer(cctx, crjs.StreamName, jetstream.ConsumerConfig{
		Durable:     s.name,
		Description: "Crossrank webhook deliveries to " + s.shown,
		// A new webhook receives every edition once, history included:
		// the record, not the consumer's start, says what was delivered.
		DeliverPolicy: jetstream.DeliverAllPolicy,
		// Editions, and the desk's requests to deliver one again.
		FilterSubjects: []string{FilterSubject, events.SubjectPrefix + "webhook." + s.agg.ID + ".redelivery_requested"},
		AckPolicy:      jetstream.AckExplicitPolicy,
		AckWait:        s.cfg.AckWait,
		MaxDeliver:     -1,
		MaxAckPending:  1, // in order, one at a time, even across replicas
	})
	cancel()
	if err != nil {
		return err
	}
	return consume.FetchEach(ctx, cons, s.handle)
}

// handle delivers one edition, or a redelivery the desk asked for,
// unless it is recorded already, records the outcome, and acknowledges;
// stopped before the outcome is recorded it gives the message back.
func (s *Sender) handle(ctx context.Context, m jetstream.Msg) {
	log := s.cfg.Logger
	md, err := m.Metadata()
	if err != nil {
		_ = m.Nak()
		return
	}
	ev, err := events.Decode(m.Subject(), events.Header(m.Headers()), m.Data(), md.Sequence.Stream)
	if err != nil {
		log.Error("webhook: undecodable event; skipped", "seq", md.Sequence.Stream, "err", err)
		_ = m.Term()
		return
	}
	// after: only records stored after it count; a redelivery is done once
	// it has an outcome of its own.
	var after uint64
	switch d := ev.Data.(type) {
	case *events.EditionPublished:
	case *events.WebhookRedeliveryRequested:
		after = ev.Sequence
		if ev, err = s.edition(ctx, d.Ranking, d.Edition); err != nil {
			log.Warn("webhook: reading the edition to redeliver failed", "ranking", d.Ranking, "edition", d.Edition, "err", err)
			_ = m.NakWithDelay(time.Second)
			return
		}
	default:
		log.Error("webhook: not an edition; skipped", "seq", md.Sequence.Stream, "type", ev.Type)
		_ = m.Term()
		return
	}
	d, ok := ev.Data.(*events.EditionPublished)
	if !ok {
		log.Error("webhook: no such edition to redeliver; skipped", "seq", md.Sequence.Stream)
		_ = m.Term()
		return
	}
	if d.Size != nil { // split into parts: the payload lists them all
		whole, err := s.edition(ctx, d.Ranking, d.Number)
		if err != nil {
			log.Warn("webhook: reading the edition's parts failed", "ranking", d.Ranking, "edition", d.Number, "err", err)
			_ = m.NakWithDelay(time.Second)
			return
		}
		if ev, ok = whole, whole.Data != nil; ok {
			d = whole.Data.(*events.EditionPublished)
		}
	}
	done, last, err := s.recorded(ctx, d.Ranking, d.Number, after)
	if err != nil {
		log.Warn("webhook: reading deliveries failed", "err", err)
		_ = m.NakWithDelay(time.Second)
		return
	}
	if done {
		_ = m.DoubleAck(ctx)
		return
	}
	body, _ := json.Marshal(payloadOf(ev, d))
	status, attempts, postErr := s.post(ctx, m, ev.ID, d, body)
	if postErr != nil && ctx.Err() != nil {
		_ = m.Nak() // stopped mid-retry: the next sender starts over at once
		return
	}
	// Delivered (or failed for good): record it even if we are stopping,
	// or the next sender would post the edition again.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	var rec any = &events.WebhookDelivered{URL: s.shown, Ranking: d.Ranking, Edition: d.Number, Status: status, Attempts: attempts}
	if postErr != nil {
		rec = &events.WebhookFailed{URL: s.shown, Ranking: d.Ranking, Edition: d.Number, Attempt: attempts, Error: postErr.Error()}
		log.Error("webhook: delivery failed for good", "url", s.shown, "ranking", d.Ranking, "edition", d.Number,
			"attempts", attempts, "err", postErr)
	}
	if err := s.record(ctx, rec, d, last, after); err != nil {
		log.Warn("webhook: recording the delivery failed; it will be retried", "err", err)
		_ = m.NakWithDelay(time.Second)
		return
	}
	if err := m.DoubleAck(ctx); err != nil {
		log.Warn("webhook: ack failed; the record makes the redelivery a no-op", "err", err)
	}
	if postErr == nil {
		log.Info("webhook delivered", "url", s.shown, "ranking", d.Ranking, "edition", d.Number, "attempts", attempts)
	}
}

// edition returns the EditionPublished event of a ranking's edition n,
// whole (with its parts' lists when it was split); its Data is nil when
// there is none.
func (s *Sender) edition(ctx context.Context, ranking string, n int) (events.Event, error) {
	evs, err := s.store.Load(ctx, domain.EditionID(ranking), 0)
	if err != nil {
		return events.Event{}, err
	}
	var parts []events.EditionPartRecorded
	for _, e := range evs {
		switch d := e.Data.(type) {
		case *events.EditionPartRecorded:
			if d.Number == n {
				parts = append(parts, *d)
			}
		case *events.EditionPublished:
			if d.Number == n {
				whole := events.JoinEdition(*d, parts)
				e.Data = &whole
				return e, nil
			}
		}
	}
	return events.Event{}, nil
}

// recorded reports whether the edition has a delivery record (delivered or
// finally failed) stored after sequence after, and returns the
// aggregate's last sequence.
func (s *Sender) recorded(ctx context.Context, ranking string, edition int, after uint64) (bool, uint64, error) {
	evs, err := s.store.Load(ctx, s.agg, 0)
	if err != nil {
		return false, 0, err
	}
	var last uint64
	done := false
	for _, e := range evs {
		last = e.Sequence
		if e.Sequence <= after {
			continue
		}
		switch d := e.Data.(type) {
		case *events.WebhookDelivered:
			done = done || d.Ranking == ranking && d.Edition == edition
		case *events.WebhookFailed:
			done = done || d.Ranking == ranking && d.Edition == edition
		}
	}
	return done, last, nil
}

// record appends the outcome with an expectation on the aggregate; when
// another sender appended first, it reads again and appends only if the
// edition is still unrecorded.
func (s *Sender) record(ctx context.Context, rec any, d *events.EditionPublished, last, after uint64) error {
	for range 5 {
		now := s.cfg.Now()
		ev, err := events.New(events.NewID(now), now, domain.SystemActor, s.agg.ID, rec)
		if err != nil {
			return err
		}
		_, err = s.store.Append(ctx, []events.Expectation{{Aggregate: s.agg, LastSeq: last}}, ev)
		if !errors.Is(err, events.ErrConflict) {
			return err
		}
		var done bool
		if done, last, err = s.recorded(ctx, d.Ranking, d.Number, after); err != nil || done {
			return err
		}
	}
	return events.ErrConflict
}

func payloadOf(ev events.Event, d *events.EditionPublished) Payload {
	p := Payload{ID: d.Ranking + "/" + strconv.Itoa(d.Number), Type: "edition-published", Ranking: d.Ranking,
		Edition: d.Number, PublishedAt: ev.Time.UTC().Format(time.RFC3339), Publisher: ev.Actor,
		SnapshotHash: d.SnapshotHash, Proposals: append([]string{}, d.Proposals...), NewEntries: []string{},
		Changes: len(d.Changes), Note: d.Note}
	for _, ne := range d.NewEntries {
		p.NewEntries = append(p.NewEntries, ne.Slug)
	}
	return p
}
