package capture

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/crossrank/crossrank/cmd/crossrank/consume"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events"
	crjs "github.com/crossrank/crossrank/events/jetstream"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// FilterSubject selects the events the worker reads: every evidence item
// added to any proposal.
const FilterSubject = events.SubjectPrefix + "proposal.*.evidence_added"

// ConsumerName is the durable consumer every replica's worker shares, so
// each evidence item is handed to one worker at a time.
const ConsumerName = "capture"

// Recorder is what the worker needs of the command handler
// (*handler.Handler): the proposal's state, and the command that records a
// capture.
type Recorder interface {
	Proposal(ctx context.Context, id string) (*domain.Proposal, error)
	RecordCapture(ctx context.Context, a domain.Actor, c domain.RecordCapture) (handler.Result, error)
}

// WorkerConfig configures a Worker. Recorder and Archive are required; the
// zero value of every other field has a working default, noted on it.
type WorkerConfig struct {
	Recorder Recorder
	Archive  *Archive
	Fetcher  *Fetcher // nil: a zero Fetcher (public addresses only)
	// Attempts bounds the fetches of one source when it times out or is
	// unreachable; other failures are recorded at once. Default 3.
	Attempts int
	// Backoff is how long JetStream holds back an item whose fetch failed
	// before offering it again (behind what came meanwhile); it doubles for
	// each further attempt. Default 5s.
	Backoff time.Duration
	// Workers bounds the captures this worker runs at once. Default
	// DefaultWorkers.
	Workers int
	// PerHost bounds those of them that fetch from one host; an item whose
	// host is busy goes back to the stream for a second. Default 2.
	PerHost int
	// AckWait is how long the server waits for an acknowledgement before
	// it hands the item to another worker (a crashed one never answers).
	// The worker reports progress every third of it. Default: the fetch
	// deadline plus 10s.
	AckWait time.Duration
	Logger  *slog.Logger // nil: discard

	// Test hooks, set through export_test.go: called after the fetch and
	// after the result is recorded, before the message is acknowledged.
	afterFetch, afterRecord func(ctx context.Context)
}

// Worker captures the sources of evidence items as they are added: it
// reads EvidenceAdded events through a durable JetStream consumer and, for
// each item that cites an http(s) URL and has no capture result yet,
// fetches the page, archives the response, checks the quote and records
// EvidenceCaptured (or EvidenceCaptureFailed) on the proposal.
//
// Exactly once, across restarts and replicas: the record, not the
// consumer, says what is done. Before fetching, the worker reads the
// proposal and skips an item that has a result; the result is recorded
// with a command id derived from the item (CommandID), so a second
// worker's append of the same item is a retry the handler recognises, and
// DecideRecordCapture refuses any other second result. The message is
// acknowledged only after the record is stored; a worker stopped or
// crashed before that leaves it to the next one, which fetches again.
// A page is fetched twice at most in that window, never recorded twice.
//
// One slow source holds up nothing else: captures run in a pool of
// Workers, at most PerHost of them on one host, and a fetch that failed in
// a way that may pass goes back to the stream with a delay (JetStream
// redelivers it after Backoff, behind what came meanwhile) instead of
// waiting in a slot. An unrelated page therefore waits for a free slot at
// most, which a fetch gives back within its deadline.
type Worker struct {
	cfg      WorkerConfig
	js       jetstream.JetStream
	hosts    *hostSlots
	attempts attempts
}

// DefaultWorkers is how many captures a worker runs at once unless its
// config says otherwise.
const DefaultWorkers = 4

// busyHostDelay is how long an item waits in the stream when its host
// already has PerHost fetches in flight.
const busyHostDelay = time.Second

// NewWorker returns a worker reading the stream through nc.
func NewWorker(nc *nats.Conn, cfg WorkerConfig) (*Worker, error) {
	if cfg.Recorder == nil || cfg.Archive == nil {
		return nil, errors.New("capture: a worker needs a recorder and an archive")
	}
	if cfg.Fetcher == nil {
		cfg.Fetcher = &Fetcher{}
	}
	if cfg.Attempts <= 0 {
		cfg.Attempts = 3
	}
	if cfg.Backoff <= 0 {
		cfg.Backoff = 5 * time.Second
	}
	if cfg.Workers <= 0 {
		cfg.Workers = DefaultWorkers
	}
	if cfg.PerHost <= 0 {
		cfg.PerHost = 2
	}
	if cfg.AckWait <= 0 {
		timeout := cfg.Fetcher.Timeout
		if timeout <= 0 {
			timeout = DefaultTimeout
		}
		cfg.AckWait = timeout + 10*time.Second
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	return &Worker{cfg: cfg, js: js, hosts: newHostSlots(cfg.PerHost)}, nil
}

// CommandID is the command id of the capture of one evidence item: the
// same for every attempt by every worker, so the handler stores it once.
// It is a version-8 (custom) UUID made from a hash of the item.
func CommandID(proposal, evidence string) string {
	return hashID("crossrank capture\x00" + proposal + "\x00" + evidence)
}

// hashID returns a version-8 (custom) UUID made from a hash of s.
func hashID(s string) string {
	sum := sha256.Sum256([]byte(s))
	h := hex.EncodeToString(sum[:16])
	return h[0:8] + "-" + h[8:12] + "-8" + h[13:16] + "-" + string("89ab"[sum[8]&3]) + h[17:20] + "-" + h[20:32]
}

// Reason returns the domain's reason code for an error Fetch returned.
func Reason(err error) string {
	for _, r := range []struct {
		err  error
		code string
	}{
		{ErrScheme, domain.CaptureScheme}, {ErrForbiddenAddress, domain.CaptureForbiddenAddress},
		{ErrTooManyRedirects, domain.CaptureTooManyRedirects}, {ErrTimeout, domain.CaptureTimeout},
		{ErrTooLarge, domain.CaptureTooLarge}, {ErrContentType, domain.CaptureContentType},
		{ErrEncoding, domain.CaptureEncoding}, {ErrStatus, domain.CaptureStatus},
	} {
		if errors.Is(err, r.err) {
			return r.code
		}
	}
	return domain.CaptureUnreachable
}

// Run captures until ctx ends; it returns nil then. It rides out NATS
// outages, retrying with a pause.
func (w *Worker) Run(ctx context.Context) error {
	return consume.Run(ctx, w.cfg.Logger, "capture", w.consume)
}

func (w *Worker) consume(ctx context.Context) error {
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	cons, err := w.js.CreateOrUpdateConsumer(cctx, crjs.StreamName, jetstream.ConsumerConfig{
		Durable:     ConsumerName,
		Description: "Crossrank evidence captures",
		// Evidence added before the worker first ran is captured too: the
		// proposal's record, not the consumer's start, says what is done.
		DeliverPolicy: jetstream.DeliverAllPolicy,
		FilterSubject: FilterSubject,
		AckPolicy:     jetstream.AckExplicitPolicy,
		AckWait:       w.cfg.AckWait,
		MaxDeliver:    -1,
		// Workers items in flight per replica; the replicas share the rest.
		// Items put back (a busy host, a failed fetch) are not pending.
		MaxAckPending: 64,
	})
	cancel()
	if err != nil {
		return err
	}
	return fetchPool(ctx, cons, w.cfg.Workers, w.handle)
}

// handle captures one evidence item unless it needs none, records the
// result and acknowledges; stopped before the result is recorded, it gives
// the message back.
func (w *Worker) handle(ctx context.Context, m jetstream.Msg) {
	log := w.cfg.Logger
	md, err := m.Metadata()
	if err != nil {
		_ = m.Nak()
		return
	}
	ev, err := events.Decode(m.Subject(), events.Header(m.Headers()), m.Data(), md.Sequence.Stream)
	d, ok := ev.Data.(*events.EvidenceAdded)
	if err != nil || !ok {
		log.Error("capture: not an evidence item; skipped", "seq", md.Sequence.Stream, "err", err)
		_ = m.Term()
		return
	}
	if d.SourceURL == "" {
		_ = m.Ack() // a named document: nothing to fetch
		return
	}
	host := hostOf(d.SourceURL)
	if !w.hosts.take(host) {
		// Behind the items of other hosts, not in a slot of the pool.
		_ = m.NakWithDelay(busyHostDelay)
		return
	}
	defer w.hosts.give(host)
	defer consume.Heartbeat(m, w.cfg.AckWait)()
	item, need, err := w.needs(ctx, ev.Subject, d.EvidenceID)
	switch {
	case err != nil:
		log.Warn("capture: reading the proposal failed", "proposal", ev.Subject, "err", err)
		_ = m.NakWithDelay(time.Second)
		return
	case !need:
		_ = m.DoubleAck(ctx)
		return
	}
	c, err := w.capture(ctx, ev.Subject, item, md.Sequence.Stream)
	var again *retry
	switch {
	case ctx.Err() != nil:
		_ = m.NakWithDelay(time.Second)
		return
	case errors.As(err, &again):
		log.Info("capture: fetch failed; the item goes back to the stream", "proposal", ev.Subject, "evidence", item.EvidenceID,
			"attempt", again.attempt, "wait", again.wait, "err", again.err)
		_ = m.NakWithDelay(again.wait)
		return
	case err != nil:
		log.Warn("capture: archiving failed; it will be retried", "proposal", ev.Subject, "evidence", item.EvidenceID, "err", err)
		_ = m.NakWithDelay(time.Second)
		return
	}
	if w.cfg.afterFetch != nil {
		w.cfg.afterFetch(ctx)
		if ctx.Err() != nil {
			_ = m.Nak() // stopped before recording: the next worker fetches again
			return
		}
	}
	// Record even if we are stopping: the fetch is done.
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	_, err = w.cfg.Recorder.RecordCapture(rctx, domain.Worker(), c)
	switch {
	case errors.Is(err, domain.ErrCaptureRecorded), errors.Is(err, domain.ErrUnknownEvidence), errors.Is(err, domain.ErrProposalMissing):
		// Another worker recorded it first, or the editor removed the item
		// meanwhile: nothing left to do.
	case errors.Is(err, domain.ErrInvalid), errors.Is(err, domain.ErrForbidden):
		// Retrying cannot help (a final URL over the length limit, say).
		log.Error("capture: the result was refused; the item stays without a capture", "proposal", ev.Subject,
			"evidence", item.EvidenceID, "err", err)
		_ = m.Term()
		return
	case err != nil:
		log.Warn("capture: recording failed; it will be retried", "proposal", ev.Subject, "evidence", item.EvidenceID, "err", err)
		_ = m.NakWithDelay(time.Second)
		return
	}
	if w.cfg.afterRecord != nil {
		w.cfg.afterRecord(ctx)
		if ctx.Err() != nil {
			return // as if crashed: no acknowledgement, the server redelivers after AckWait
		}
	}
	if err := m.DoubleAck(rctx); err != nil {
		log.Warn("capture: ack failed; the record makes the redelivery a no-op", "err", err)
	}
	log.Info("capture recorded", "proposal", ev.Subject, "evidence", item.EvidenceID, "sha256", c.SHA256,
		"failure", c.Failure, "quote_found", c.QuoteFound)
}

// needs reads the proposal and reports whether the item still needs a
// capture: it exists, cites a URL and has no result.
func (w *Worker) needs(ctx context.Context, proposal, evidence string) (domain.Evidence, bool, error) {
	p, err := w.cfg.Recorder.Proposal(ctx, proposal)
	if errors.Is(err, domain.ErrProposalMissing) {
		return domain.Evidence{}, false, nil
	}
	if err != nil {
		return domain.Evidence{}, false, err
	}
	item, ok := p.EvidenceByID(evidence)
	return item, ok && item.NeedsCapture(), nil
}

// retry says a fetch failed in a way that may pass (a timeout, a refused
// connection) and the item is worth another attempt after wait.
type retry struct {
	attempt int
	wait    time.Duration
	err     error
}

func (r *retry) Error() string {
	return "capture: attempt " + strconv.Itoa(r.attempt) + ": " + r.err.Error()
}

// capture fetches the item's source once, archives the response and checks
// the quote. It returns the command recording the result; a *retry when
// the fetch failed and should be tried again later (the item goes back to
// the stream rather than hold a slot while it waits); any other error
// means nothing can be recorded yet (the archive failed, or ctx ended).
func (w *Worker) capture(ctx context.Context, proposal string, item domain.Evidence, seq uint64) (domain.RecordCapture, error) {
	c := domain.RecordCapture{CommandID: CommandID(proposal, item.EvidenceID), Proposal: proposal, Evidence: item.EvidenceID}
	resp, err := w.cfg.Fetcher.Fetch(ctx, item.SourceURL)
	if ctx.Err() != nil {
		return c, ctx.Err()
	}
	if err != nil && (errors.Is(err, ErrTimeout) || errors.Is(err, ErrUnreachable)) {
		if n := w.attempts.failed(seq); n < w.cfg.Attempts {
			return c, &retry{attempt: n, wait: w.cfg.Backoff << (n - 1), err: err}
		}
	}
	w.attempts.done(seq)
	if err != nil {
		c.At, c.Failure = time.Now(), Reason(err)
		w.cfg.Logger.Info("capture failed", "proposal", proposal, "evidence", item.EvidenceID, "reason", c.Failure, "err", err)
		return c, nil
	}
	kept, err := Keep(ctx, w.cfg.Archive, resp, item.Excerpt)
	if err != nil {
		return c, err
	}
	status, _ := strconv.Atoi(strings.Fields(resp.Status + " 0")[0])
	c.At, c.FinalURL, c.Status, c.ContentType = resp.Date, resp.FinalURL, status, resp.ContentType()
	c.Size, c.SHA256, c.QuoteFound, c.QuoteChecked = int64(len(resp.Body)), kept.Key, kept.Found, kept.QuoteChecked
	return c, nil
}

// fetchRetrying gets url, trying again after a timeout or a connection
// failure with a pause that starts at backoff and doubles, up to attempts
// times.
func fetchRetrying(ctx context.Context, f *Fetcher, url string, attempts int, backoff time.Duration, log *slog.Logger) (*Response, error) {
	wait := backoff
	for attempt := 1; ; attempt++ {
		resp, err := f.Fetch(ctx, url)
		if err == nil || attempt >= attempts || !errors.Is(err, ErrTimeout) && !errors.Is(err, ErrUnreachable) {
			return resp, err
		}
		log.Info("fetch attempt failed; retrying", "url", url, "attempt", attempt, "wait", wait, "err", err)
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(wait):
		}
		wait *= 2
	}
}
