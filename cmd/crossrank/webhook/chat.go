package webhook

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/crossrank/crossrank/cmd/crossrank/capture"
	"github.com/crossrank/crossrank/cmd/crossrank/consume"
	"github.com/crossrank/crossrank/cmd/crossrank/delivery"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	crjs "github.com/crossrank/crossrank/events/jetstream"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/i18n"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Chat posts each ranking's review requests and publications to the
// ranking's chat webhook (domain.Ranking.ChatURL) as an incoming-webhook
// message, {"text": "…"} with a link, which Slack and Mattermost both
// take. It delivers the way a Sender does: one durable consumer shared by
// every replica, one message in flight, a record on the webhook's
// aggregate ("wh-" and the URL's hash) read before posting and appended
// (ChatPosted or, after the last attempt, ChatFailed) before the message is
// acknowledged, so each event is posted once however often the process
// restarts. The URL is the user's: every connection is checked against
// private and special addresses (capture.GuardedDial) unless Allow opens
// them, and no redirect is followed.
//
// The message is in the language the ranking's chat webhook names
// (zh by default, the newsroom's), not a reader's: a channel has no
// Accept-Language.
type Chat struct {
	cfg   ChatConfig
	js    jetstream.JetStream
	store events.Store
}

// ChatCommands is what Chat reads of the aggregates (*handler.Handler).
type ChatCommands interface {
	Ranking(ctx context.Context, slug string) (*domain.Ranking, error)
	Proposal(ctx context.Context, id string) (*domain.Proposal, error)
}

// ChatConfig configures Chat; Commands is required.
type ChatConfig struct {
	Commands ChatCommands
	// PublicURL begins the links in the messages (e.g. https://rank.example).
	PublicURL string
	// Allow opens non-public prefixes to the posts (tests: 127.0.0.1/32).
	Allow []netip.Prefix
	// MaxAttempts, Backoff and MaxBackoff as for a Sender; defaults 8, 1s, 5m.
	MaxAttempts         int
	Backoff, MaxBackoff time.Duration
	Logger              *slog.Logger
	Now                 func() time.Time
	client              *http.Client
}

// chatAckWait is how long the server waits for the chat sender's
// acknowledgement before another replica gets the message.
const chatAckWait = 30 * time.Second

// ChatConsumer is the durable consumer every replica shares.
const ChatConsumer = "webhook-chat"

// NewChat returns a Chat reading the stream through nc and recording
// posts in store.
func NewChat(nc *nats.Conn, store events.Store, cfg ChatConfig) (*Chat, error) {
	if cfg.Commands == nil {
		return nil, errors.New("webhook: chat needs the command handler")
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
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	cfg.client = &http.Client{Timeout: 10 * time.Second,
		Transport:     &http.Transport{Proxy: nil, DialContext: capture.GuardedDial(cfg.Allow), TLSHandshakeTimeout: 10 * time.Second},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	return &Chat{cfg: cfg, js: js, store: store}, nil
}

// Run posts until ctx ends; it returns nil then.
func (c *Chat) Run(ctx context.Context) error {
	return consume.Run(ctx, c.cfg.Logger, "chat webhook", c.consume)
}

func (c *Chat) consume(ctx context.Context) error {
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	cons, err := c.js.CreateOrUpdateConsumer(cctx, crjs.StreamName, jetstream.ConsumerConfig{
		Durable:     ChatConsumer,
		Description: "Crossrank chat webhooks: review requests and publications",
		// From now on: a chat webhook hears what happens after it is set,
		// not the history.
		DeliverPolicy:  jetstream.DeliverNewPolicy,
		FilterSubjects: []string{FilterSubject, events.SubjectPrefix + "proposal.*.reviewers_requested"},
		AckPolicy:      jetstream.AckExplicitPolicy,
		AckWait:        chatAckWait,
		MaxDeliver:     -1,
		MaxAckPending:  1,
	})
	cancel()
	if err != nil {
		return err
	}
	return consume.FetchEach(ctx, cons, c.handle)
}

// handle posts the message about one event, unless its ranking has no chat
// webhook or the post is recorded already.
func (c *Chat) handle(ctx context.Context, m jetstream.Msg) {
	log := c.cfg.Logger
	md, err := m.Metadata()
	if err != nil {
		_ = m.Nak()
		return
	}
	ev, err := events.Decode(m.Subject(), events.Header(m.Headers()), m.Data(), md.Sequence.Stream)
	if err != nil {
		log.Error("chat webhook: undecodable event; skipped", "seq", md.Sequence.Stream, "err", err)
		_ = m.Term()
		return
	}
	r, text, err := c.message(ctx, ev)
	if err != nil {
		log.Warn("chat webhook: reading the event's ranking failed; it will be retried", "seq", ev.Sequence, "err", err)
		_ = m.NakWithDelay(time.Second)
		return
	}
	if r == nil || r.ChatURL == "" || text == "" {
		_ = m.DoubleAck(ctx)
		return
	}
	agg := domain.WebhookID(AggregateID(r.ChatURL))
	done, last, err := c.recorded(ctx, agg, ev.ID)
	if err != nil {
		_ = m.NakWithDelay(time.Second)
		return
	}
	if done {
		_ = m.DoubleAck(ctx)
		return
	}
	shown := projections.ChatHost(r.ChatURL)
	body, _ := json.Marshal(map[string]string{"text": text})
	status, attempts, postErr := c.post(ctx, m, r.ChatURL, body)
	if postErr != nil && ctx.Err() != nil {
		_ = m.Nak()
		return
	}
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	var rec any = &events.ChatPosted{URL: shown, Ranking: r.Slug, Source: ev.ID, Status: status, Attempts: attempts}
	if postErr != nil {
		rec = &events.ChatFailed{URL: shown, Ranking: r.Slug, Source: ev.ID, Attempt: attempts, Error: postErr.Error()}
		log.Error("chat webhook: post failed for good", "url", shown, "ranking", r.Slug, "err", postErr)
	}
	now := c.cfg.Now()
	rev, err := events.New(events.NewID(now), now, domain.SystemActor, agg.ID, rec)
	if err == nil {
		_, err = c.store.Append(rctx, []events.Expectation{{Aggregate: agg, LastSeq: last}}, rev)
	}
	if err != nil {
		log.Warn("chat webhook: recording the post failed; it will be retried", "err", err)
		_ = m.NakWithDelay(time.Second)
		return
	}
	_ = m.DoubleAck(rctx)
}

// message returns the ranking an event concerns and the chat message
// about it ("" when there is none to send).
func (c *Chat) message(ctx context.Context, ev events.Event) (*domain.Ranking, string, error) {
	base := strings.TrimSuffix(c.cfg.PublicURL, "/")
	switch d := ev.Data.(type) {
	case *events.ReviewersRequested:
		p, err := c.cfg.Commands.Proposal(ctx, ev.Subject)
		if err != nil || !p.Exists() {
			return nil, "", err
		}
		r, err := c.cfg.Commands.Ranking(ctx, p.Ranking)
		if err != nil || !r.Exists() {
			return nil, "", err
		}
		link := base + "/desk/proposals/" + url.PathEscape(p.ID)
		names := strings.Join(d.Reviewers, ", ")
		if due, err := time.Parse(time.RFC3339, d.Due); err == nil {
			return r, i18n.T(r.ChatLang, "chat.review_requested_due", ev.Actor, names, p.Title, p.ID, link, i18n.DateTime(r.ChatLang, due)), nil
		}
		return r, i18n.T(r.ChatLang, "chat.review_requested", ev.Actor, names, p.Title, p.ID, link), nil
	case *events.EditionPublished:
		r, err := c.cfg.Commands.Ranking(ctx, d.Ranking)
		if err != nil || !r.Exists() {
			return nil, "", err
		}
		title := cmp.Or(r.Title.In(r.ChatLang), r.Slug)
		link := base + "/r/" + url.PathEscape(d.Ranking) + "/editions/" + strconv.Itoa(d.Number)
		return r, i18n.T(r.ChatLang, "chat.published", d.Number, title, ev.Actor, link), nil
	}
	return nil, "", nil
}

// recorded reports whether the webhook's aggregate records a post about
// the event source, and returns its last sequence.
func (c *Chat) recorded(ctx context.Context, agg events.Aggregate, source string) (bool, uint64, error) {
	evs, err := c.store.Load(ctx, agg, 0)
	if err != nil {
		return false, 0, err
	}
	var last uint64
	done := false
	for _, e := range evs {
		last = e.Sequence
		switch d := e.Data.(type) {
		case *events.ChatPosted:
			done = done || d.Source == source
		case *events.ChatFailed:
			done = done || d.Source == source
		}
	}
	return done, last, nil
}

// post sends body until the receiver answers 2xx or the attempts run out,
// keeping the message in progress while it waits (well within the
// consumer's AckWait, so no other replica posts it meanwhile).
func (c *Chat) post(ctx context.Context, m jetstream.Msg, target string, body []byte) (status, attempt int, err error) {
	p := delivery.Policy{Attempts: c.cfg.MaxAttempts, First: c.cfg.Backoff, Max: c.cfg.MaxBackoff}
	return delivery.Retry(ctx, p, func() { _ = m.InProgress() }, chatAckWait/3,
		func(int) (int, error) { return c.once(ctx, target, body) }, nil)
}

func (c *Chat) once(ctx context.Context, target string, body []byte) (int, error) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), requestLimit)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Crossrank-Webhook/1")
	res, err := c.cfg.client.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // its message would repeat the URL, whose path is the secret
		}
		return 0, fmt.Errorf("post: %w", err)
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 64<<10))
	res.Body.Close()
	if res.StatusCode/100 != 2 {
		return res.StatusCode, fmt.Errorf("receiver answered HTTP %d", res.StatusCode)
	}
	return res.StatusCode, nil
}
