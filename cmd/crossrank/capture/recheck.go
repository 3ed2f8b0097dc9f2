package capture

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/crossrank/crossrank/cmd/crossrank/consume"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events"
	crjs "github.com/crossrank/crossrank/events/jetstream"
	"github.com/crossrank/crossrank/projections"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// RecheckSchedule names the schedule of the re-check in the schedule
// stream: it fires on crjs.TickSubject(RecheckSchedule).
const RecheckSchedule = "recheck"

// RecheckConsumer is the durable consumer of the re-check's ticks that
// every replica shares: the server hands each tick to one of them.
const RecheckConsumer = "recheck"

// DefaultRecheckEvery is how often the sources are re-checked by default.
const DefaultRecheckEvery = 24 * time.Hour

// RecheckRecorder is what the re-check needs of the command handler
// (*handler.Handler): an item's state, and the command recording a result.
type RecheckRecorder interface {
	Proposal(ctx context.Context, id string) (*domain.Proposal, error)
	RecordRecheck(ctx context.Context, a domain.Actor, c domain.RecordRecheck) (handler.Result, error)
}

// Sources lists the evidence items to re-check (*projections.Store does).
type Sources interface {
	PublishedCaptures(ctx context.Context) ([]projections.SourceRef, error)
}

// RecheckConfig configures a Rechecker. Recorder, Sources and Archive are
// required; the zero value of every other field has a working default.
type RecheckConfig struct {
	Recorder RecheckRecorder
	Sources  Sources
	Archive  *Archive
	Fetcher  *Fetcher // nil: a zero Fetcher (public addresses only)
	// Every is the schedule's interval, at least a second. Default
	// DefaultRecheckEvery.
	Every    time.Duration
	Replicas int // of the schedule stream, when it is created; default 1
	// Attempts and Backoff bound the fetches of one source that times out
	// or is unreachable, as WorkerConfig's do: only then is it dead.
	Attempts int
	Backoff  time.Duration
	// AckWait: how long a tick may go without news before the server hands
	// it to another replica (a crashed one never answers). The re-check
	// reports progress every third of it. Default: the fetch deadline plus
	// 10s.
	AckWait time.Duration
	Logger  *slog.Logger // nil: discard
}

// Rechecker re-checks the captured sources behind published values on a
// JetStream message schedule, recording EvidenceSourceChanged or
// EvidenceSourceDead where one drifted.
//
// The schedule is a message in the schedule stream, not a timer in this
// process: the server fires it, one tick message per interval, whatever
// the number of replicas and across restarts. The replicas share one
// durable consumer of the ticks, which hands each tick to one of them; a
// replica that stops mid-tick leaves it unacknowledged, and another picks
// it up. Exactly one result per item and tick: results are recorded with
// a command id derived from the item and the tick (RecheckCommandID), an
// item whose latest result names the tick is skipped, and the domain
// refuses a second result for it.
//
// On each tick, for each captured item behind a current published value,
// it fetches the source again with the same Fetcher:
//
//   - 404, 410, or unreachable, timed out or refused after the retries:
//     EvidenceSourceDead, unless it was dead already.
//   - answered with the body last recorded: nothing.
//   - answered with another body that reads the same (markup, scripts,
//     styles changed): nothing.
//   - answered with a text that differs, or at all after being dead: the
//     response is archived and EvidenceSourceChanged recorded, whether or
//     not the quote is still there (QuoteFound says which). A change that
//     keeps the quote is still a change a reviewer may want to read; the
//     queue lists the lost quotes first.
//   - any other failure (5xx, 403, a content type no longer captured…):
//     nothing; the source may be back at the next tick.
type Rechecker struct {
	cfg RecheckConfig
	js  jetstream.JetStream
}

// NewRechecker returns a re-check reading the schedule stream through nc.
func NewRechecker(nc *nats.Conn, cfg RecheckConfig) (*Rechecker, error) {
	if cfg.Recorder == nil || cfg.Sources == nil || cfg.Archive == nil {
		return nil, errors.New("capture: a re-check needs a recorder, sources and an archive")
	}
	if cfg.Fetcher == nil {
		cfg.Fetcher = &Fetcher{}
	}
	if cfg.Every == 0 {
		cfg.Every = DefaultRecheckEvery
	}
	if cfg.Every < time.Second {
		return nil, fmt.Errorf("capture: re-check every %v: at least a second", cfg.Every)
	}
	if cfg.Attempts <= 0 {
		cfg.Attempts = 3
	}
	if cfg.Backoff <= 0 {
		cfg.Backoff = 5 * time.Second
	}
	if cfg.AckWait <= 0 {
		cfg.AckWait = orDefault(cfg.Fetcher.Timeout, DefaultTimeout) + 10*time.Second
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	return &Rechecker{cfg: cfg, js: js}, nil
}

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// RecheckCommandID is the command id of one item's result at one tick:
// the same for every attempt by every replica.
func RecheckCommandID(proposal, evidence, tick string) string {
	return events.NamedID("crossrank recheck\x00" + proposal + "\x00" + evidence + "\x00" + tick)
}

// Run sets the schedule (unless it is set at that interval already) and
// re-checks on each tick until ctx ends; it returns nil then. It rides out
// NATS outages, retrying with a pause.
func (r *Rechecker) Run(ctx context.Context) error {
	return consume.Run(ctx, r.cfg.Logger, "recheck", r.consume)
}

func (r *Rechecker) consume(ctx context.Context) error {
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := crjs.SetSchedule(cctx, r.js, r.cfg.Replicas, RecheckSchedule, r.cfg.Every); err != nil {
		return err
	}
	cons, err := r.js.CreateOrUpdateConsumer(cctx, crjs.ScheduleStreamName, jetstream.ConsumerConfig{
		Durable:       RecheckConsumer,
		Description:   "Crossrank re-checks of captured sources, one per tick",
		DeliverPolicy: jetstream.DeliverAllPolicy, // a tick that fired while every replica was down still runs
		FilterSubject: crjs.TickSubject(RecheckSchedule),
		AckPolicy:     jetstream.AckExplicitPolicy,
		AckWait:       r.cfg.AckWait,
		MaxDeliver:    -1,
		MaxAckPending: 1, // one tick at a time, on one replica
	})
	if err != nil {
		return err
	}
	return consume.FetchEach(ctx, cons, r.tick)
}

// tick re-checks every published captured source once and acknowledges.
// Stopped midway, it leaves the tick to the next replica, which skips the
// items already recorded for it and fetches the rest.
func (r *Rechecker) tick(ctx context.Context, m jetstream.Msg) {
	log := r.cfg.Logger
	md, err := m.Metadata()
	if err != nil {
		_ = m.Nak()
		return
	}
	// The tick's stream sequence, with its time so that a schedule stream
	// made anew (sequences from 1 again) never repeats an id.
	tick := strconv.FormatUint(md.Sequence.Stream, 10) + "@" + md.Timestamp.UTC().Format(time.RFC3339Nano)
	defer consume.Heartbeat(m, r.cfg.AckWait)()
	refs, err := r.cfg.Sources.PublishedCaptures(ctx)
	if err != nil {
		log.Warn("recheck: listing the sources failed; the tick will be retried", "err", err)
		_ = m.NakWithDelay(time.Second)
		return
	}
	var recorded, failed int
	for _, ref := range refs {
		if ctx.Err() != nil {
			return // no ack: the next replica carries on
		}
		ok, err := r.check(ctx, tick, ref)
		switch {
		case err != nil:
			// A trouble of ours, not the source's: tried again next tick.
			failed++
			log.Warn("recheck: item not checked", "proposal", ref.Proposal, "evidence", ref.Evidence, "err", err)
		case ok:
			recorded++
		}
	}
	if err := m.DoubleAck(ctx); err != nil {
		log.Warn("recheck: ack failed; the results make a redelivery a no-op", "err", err)
	}
	log.Info("recheck done", "tick", tick, "sources", len(refs), "recorded", recorded, "not_checked", failed)
}

// check re-checks one item and reports whether it recorded a result.
func (r *Rechecker) check(ctx context.Context, tick string, ref projections.SourceRef) (bool, error) {
	p, err := r.cfg.Recorder.Proposal(ctx, ref.Proposal)
	if errors.Is(err, domain.ErrProposalMissing) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	item, ok := p.EvidenceByID(ref.Evidence)
	if !ok || item.Captured == nil || item.SourceURL == "" || item.RecheckTick == tick {
		return false, nil
	}
	c := domain.RecordRecheck{CommandID: RecheckCommandID(ref.Proposal, ref.Evidence, tick), Proposal: ref.Proposal,
		Evidence: ref.Evidence, Tick: tick, At: time.Now()}
	resp, err := fetchRetrying(ctx, r.cfg.Fetcher, item.SourceURL, r.cfg.Attempts, r.cfg.Backoff, r.cfg.Logger)
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	if err != nil {
		if c.Dead, c.Status = DeadReason(err); c.Dead == "" {
			r.cfg.Logger.Info("recheck: source did not answer well; not recorded", "url", item.SourceURL, "err", err)
			return false, nil
		}
		return r.record(ctx, c)
	}
	rec := NewRecord(resp)
	if item.Drift() != domain.DriftDead {
		last := item.LastSeenSHA256()
		if rec.Key() == last {
			return false, nil
		}
		before, err := r.cfg.Archive.Get(ctx, last)
		switch {
		case errors.Is(err, ErrNotFound):
			// Nothing to compare the text with: the bytes changed, say so.
		case err != nil:
			return false, err
		case SameText(before.Body, before.Header.Get("Content-Type"), resp.Body, resp.ContentType()):
			return false, nil
		}
	}
	if _, _, err := r.cfg.Archive.Put(ctx, &rec); err != nil {
		return false, err
	}
	c.QuoteFound, c.QuoteChecked = QuoteFound(resp.Body, resp.ContentType(), item.Excerpt)
	c.Status, _ = strconv.Atoi(strings.Fields(resp.Status + " 0")[0])
	c.FinalURL, c.ContentType, c.Size, c.SHA256 = resp.FinalURL, resp.ContentType(), int64(len(resp.Body)), rec.Key()
	return r.record(ctx, c)
}

func (r *Rechecker) record(ctx context.Context, c domain.RecordRecheck) (bool, error) {
	// Record even if we are stopping: the fetch is done.
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	res, err := r.cfg.Recorder.RecordRecheck(rctx, domain.Worker(), c)
	switch {
	case errors.Is(err, domain.ErrRecheckRecorded), errors.Is(err, domain.ErrUnknownEvidence), errors.Is(err, domain.ErrProposalMissing):
		return false, nil // another replica recorded it first, or the item went
	case err != nil:
		return false, err
	}
	if len(res.EventIDs) > 0 && !res.Replayed {
		r.cfg.Logger.Info("recheck recorded", "proposal", c.Proposal, "evidence", c.Evidence, "dead", c.Dead,
			"sha256", c.SHA256, "quote_found", c.QuoteFound)
		return true, nil
	}
	return false, nil
}

// DeadReason returns the domain's reason for recording a source gone after
// Fetch (with its retries) returned err, and the HTTP status that said so;
// "" when err does not say the source is gone.
func DeadReason(err error) (reason string, status int) {
	var se *StatusError
	switch {
	case errors.As(err, &se) && se.Code == http.StatusNotFound:
		return domain.DeadNotFound, se.Code
	case errors.As(err, &se) && se.Code == http.StatusGone:
		return domain.DeadGone, se.Code
	case errors.Is(err, ErrUnreachable):
		return domain.DeadUnreachable, 0
	case errors.Is(err, ErrTimeout):
		return domain.DeadTimeout, 0
	case errors.Is(err, ErrForbiddenAddress):
		return domain.DeadForbiddenAddress, 0
	}
	return "", 0
}
