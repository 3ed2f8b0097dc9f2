package capture

import (
	"context"
	"errors"
	"log/slog"
	"strconv"
	"strings"
	"sync"
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
	// unreachable; after the last the worker gives up and records the
	// failure. Other failures are recorded at once. Default
	// DefaultAttempts.
	Attempts int
	// Backoff is the wait before the second attempt; it doubles for each
	// further attempt, up to MaxBackoff. Defaults DefaultBackoff and
	// DefaultMaxBackoff. The wait is a one-shot message schedule in the
	// schedule stream, so it survives restarts and holds nothing in the
	// capture consumer meanwhile.
	Backoff, MaxBackoff time.Duration
	// Workers bounds the first attempts this worker runs at once. Default
	// DefaultWorkers.
	Workers int
	// RetryWorkers bounds the retries it runs at once, in a pool of their
	// own, so that sources failing by the thousand never take a slot from
	// a source not yet tried. Default 1.
	RetryWorkers int
	// Replicas of the schedule stream, when the worker creates it; default 1.
	Replicas int
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
// Workers, at most PerHost of them on one host. A fetch that failed in a
// way that may pass (a timeout, a refused connection) is tried again after
// a backoff that doubles up to MaxBackoff, Attempts times in all, and then
// its failure is recorded. The wait is a one-shot schedule in the schedule
// stream, not a delayed redelivery: a delayed message stays in the
// consumer's window of pending messages, and thousands of failing sources
// would fill it and stop every new one for as long as they wait. Retries
// run in a pool of their own (RetryWorkers), so a storm of them never
// takes a slot from a source not yet tried. An unrelated page therefore
// waits for a free slot at most, which a fetch gives back within its
// deadline.
type Worker struct {
	cfg   WorkerConfig
	js    jetstream.JetStream
	hosts *hostSlots
}

// DefaultWorkers is how many captures a worker runs at once unless its
// config says otherwise.
const DefaultWorkers = 4

// The default retry bounds: 10 s, 20 s, 40 s … between attempts, at most
// two hours, twelve attempts in all (some five hours from the first to the
// last), then the worker gives up.
const (
	DefaultAttempts   = 12
	DefaultBackoff    = 10 * time.Second
	DefaultMaxBackoff = 2 * time.Hour
)

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
		cfg.Attempts = DefaultAttempts
	}
	if cfg.Backoff <= 0 {
		cfg.Backoff = DefaultBackoff
	}
	if cfg.MaxBackoff <= 0 {
		cfg.MaxBackoff = max(DefaultMaxBackoff, cfg.Backoff)
	}
	if cfg.Workers <= 0 {
		cfg.Workers = DefaultWorkers
	}
	if cfg.RetryWorkers <= 0 {
		cfg.RetryWorkers = 1
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
	return events.NamedID("crossrank capture\x00" + proposal + "\x00" + evidence)
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
// outages, retrying with a pause. First attempts and retries are two
// consumers with pools of their own (see RetryWorkers).
func (w *Worker) Run(ctx context.Context) error {
	var wg sync.WaitGroup
	wg.Go(func() { _ = consume.Run(ctx, w.cfg.Logger, "capture retries", w.consumeRetries) })
	err := consume.Run(ctx, w.cfg.Logger, "capture", w.consume)
	wg.Wait()
	return err
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
		// An item put back with a delay (a busy host) stays pending, which
		// is why a failed fetch waits for its retry in the schedule stream
		// instead: thousands of them would fill this window for hours.
		MaxAckPending: 64,
	})
	cancel()
	if err != nil {
		return err
	}
	return fetchPool(ctx, cons, w.cfg.Workers, w.handle)
}

// handle makes the first attempt at one evidence item's capture.
func (w *Worker) handle(ctx context.Context, m jetstream.Msg) {
	md, err := m.Metadata()
	if err != nil {
		_ = m.Nak()
		return
	}
	ev, err := events.Decode(m.Subject(), events.Header(m.Headers()), m.Data(), md.Sequence.Stream)
	d, ok := ev.Data.(*events.EvidenceAdded)
	if err != nil || !ok {
		w.cfg.Logger.Error("capture: not an evidence item; skipped", "seq", md.Sequence.Stream, "err", err)
		_ = m.Term()
		return
	}
	if d.SourceURL == "" {
		_ = m.Ack() // a named document: nothing to fetch
		return
	}
	w.attempt(ctx, m, due{Proposal: ev.Subject, Evidence: d.EvidenceID, URL: d.SourceURL, Attempt: 1})
}

// attempt captures the item unless it needs none, records the result and
// acknowledges m; after a failure that may pass it schedules the next
// attempt and acknowledges m. Stopped before the result is recorded, it
// gives m back. It reports whether m was settled (acknowledged or
// terminated) rather than given back.
func (w *Worker) attempt(ctx context.Context, m jetstream.Msg, a due) bool {
	log := w.cfg.Logger
	host := hostOf(a.URL)
	if !w.hosts.take(host) {
		// Behind the items of other hosts, not in a slot of the pool.
		_ = m.NakWithDelay(busyHostDelay)
		return false
	}
	defer w.hosts.give(host)
	defer consume.Heartbeat(m, w.cfg.AckWait)()
	item, need, err := w.needs(ctx, a.Proposal, a.Evidence)
	switch {
	case err != nil:
		log.Warn("capture: reading the proposal failed", "proposal", a.Proposal, "err", err)
		_ = m.NakWithDelay(time.Second)
		return false
	case !need:
		_ = m.DoubleAck(ctx)
		return true
	}
	c, err := w.capture(ctx, a.Proposal, item, a.Attempt)
	var again *retry
	switch {
	case ctx.Err() != nil:
		_ = m.NakWithDelay(time.Second)
		return false
	case errors.As(err, &again):
		if err := w.scheduleRetry(ctx, a, again); err != nil {
			log.Warn("capture: scheduling the retry failed; the attempt will be made again", "proposal", a.Proposal,
				"evidence", a.Evidence, "err", err)
			_ = m.NakWithDelay(time.Second)
			return false
		}
		log.Info("capture: fetch failed; retry scheduled", "proposal", a.Proposal, "evidence", item.EvidenceID,
			"attempt", again.attempt, "wait", again.wait, "err", again.err)
		_ = m.DoubleAck(ctx)
		return true
	case err != nil:
		log.Warn("capture: archiving failed; it will be retried", "proposal", a.Proposal, "evidence", item.EvidenceID, "err", err)
		_ = m.NakWithDelay(time.Second)
		return false
	}
	if w.cfg.afterFetch != nil {
		w.cfg.afterFetch(ctx)
		if ctx.Err() != nil {
			_ = m.Nak() // stopped before recording: the next worker fetches again
			return false
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
		log.Error("capture: the result was refused; the item stays without a capture", "proposal", a.Proposal,
			"evidence", item.EvidenceID, "err", err)
		_ = m.Term()
		return true
	case err != nil:
		log.Warn("capture: recording failed; it will be retried", "proposal", a.Proposal, "evidence", item.EvidenceID, "err", err)
		_ = m.NakWithDelay(time.Second)
		return false
	}
	if w.cfg.afterRecord != nil {
		w.cfg.afterRecord(ctx)
		if ctx.Err() != nil {
			return false // as if crashed: no acknowledgement, the server redelivers after AckWait
		}
	}
	if err := m.DoubleAck(rctx); err != nil {
		log.Warn("capture: ack failed; the record makes the redelivery a no-op", "err", err)
	}
	log.Info("capture recorded", "proposal", a.Proposal, "evidence", item.EvidenceID, "sha256", c.SHA256,
		"failure", c.Failure, "attempts", a.Attempt, "quote_found", c.QuoteFound)
	return true
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
// connection) and the item is worth attempt number attempt after wait.
type retry struct {
	attempt int
	wait    time.Duration
	err     error
}

func (r *retry) Error() string {
	return "capture: attempt " + strconv.Itoa(r.attempt) + ": " + r.err.Error()
}

// capture makes attempt number n at the item's source: it fetches it once,
// archives the response and checks the quote. It returns the command
// recording the result; a *retry when the fetch failed and should be tried
// again later; any other error means nothing can be recorded yet (the
// archive failed, or ctx ended). After the last attempt the failure is the
// result: the worker gives up, and the record says after how many (n), so
// the desk can tell a source tried a dozen times from one refused at once.
func (w *Worker) capture(ctx context.Context, proposal string, item domain.Evidence, n int) (domain.RecordCapture, error) {
	c := domain.RecordCapture{CommandID: CommandID(proposal, item.EvidenceID), Proposal: proposal, Evidence: item.EvidenceID}
	resp, err := w.cfg.Fetcher.Fetch(ctx, item.SourceURL)
	if ctx.Err() != nil {
		return c, ctx.Err()
	}
	if err != nil && (errors.Is(err, ErrTimeout) || errors.Is(err, ErrUnreachable)) && n < w.cfg.Attempts {
		return c, &retry{attempt: n + 1, wait: Backoff(w.cfg.Backoff, w.cfg.MaxBackoff, n), err: err}
	}
	if err != nil {
		c.At, c.Failure, c.Attempts = time.Now(), Reason(err), n
		w.cfg.Logger.Info("capture failed; giving up", "proposal", proposal, "evidence", item.EvidenceID, "attempts", n,
			"reason", c.Failure, "err", err)
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
