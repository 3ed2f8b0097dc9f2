package capture

import (
	"context"
	"encoding/json"
	"strconv"
	"time"

	"github.com/crossrank/crossrank/cmd/crossrank/delivery"
	crjs "github.com/crossrank/crossrank/events/jetstream"
	"github.com/nats-io/nats.go/jetstream"
)

// RetryKind names the capture's retries among the one-shot schedules of
// the schedule stream: each fires on crjs.FiredSubject(RetryKind, key),
// key being the item's CommandID and the attempt's number.
const RetryKind = "capture_retry"

// RetryConsumer is the durable consumer of the retries that fire, shared by
// every replica's worker.
const RetryConsumer = "capture_retry"

// due is one attempt at an item's capture: the first comes from its
// EvidenceAdded event, each later one from a schedule whose body it is.
type due struct {
	Proposal string `json:"proposal"`
	Evidence string `json:"evidence"`
	URL      string `json:"url"`
	Attempt  int    `json:"attempt"` // 1 for the first
}

// Backoff returns the wait after failed attempt number n (1 for the
// first): first, doubled for each attempt after the first, at most limit.
func Backoff(first, limit time.Duration, n int) time.Duration {
	return delivery.Policy{First: first, Max: limit}.Wait(n)
}

// scheduleRetry sets the one-shot schedule of the attempt r names. A
// schedule fires at whole seconds, so the moment is rounded up: the wait
// is never shorter than r.wait.
func (w *Worker) scheduleRetry(ctx context.Context, a due, r *retry) error {
	next := due{Proposal: a.Proposal, Evidence: a.Evidence, URL: a.URL, Attempt: r.attempt}
	body, err := json.Marshal(next)
	if err != nil {
		return err
	}
	at := time.Now().Add(r.wait)
	if t := at.Truncate(time.Second); !t.Equal(at) {
		at = t.Add(time.Second)
	}
	key := retryKey(a.Proposal, a.Evidence, r.attempt)
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	return crjs.ScheduleOnce(cctx, w.js, w.cfg.Replicas, RetryKind, key, "capture-retry-"+key, at, body)
}

// retryKey is the schedule key of attempt n at an item: two tokens, the
// item's command id (a UUID, which a subject token can hold) and n.
func retryKey(proposal, evidence string, n int) string {
	return CommandID(proposal, evidence) + "." + strconv.Itoa(n)
}

func (w *Worker) consumeRetries(ctx context.Context) error {
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if _, err := crjs.ScheduleStream(cctx, w.js, w.cfg.Replicas); err != nil {
		return err
	}
	cons, err := w.js.CreateOrUpdateConsumer(cctx, crjs.ScheduleStreamName, jetstream.ConsumerConfig{
		Durable:       RetryConsumer,
		Description:   "Crossrank evidence captures: attempts after a failed fetch, each at its moment",
		DeliverPolicy: jetstream.DeliverAllPolicy, // a retry due while every replica was down still runs
		FilterSubject: crjs.FiredFilter(RetryKind, 2),
		AckPolicy:     jetstream.AckExplicitPolicy,
		AckWait:       w.cfg.AckWait,
		MaxDeliver:    -1,
		MaxAckPending: 16,
	})
	if err != nil {
		return err
	}
	return fetchPool(ctx, cons, w.cfg.RetryWorkers, w.handleRetry)
}

// handleRetry makes the attempt a fired schedule names and, once that is
// settled, removes the fired message: thousands of failing sources would
// otherwise leave a message per attempt in the schedule stream.
func (w *Worker) handleRetry(ctx context.Context, m jetstream.Msg) {
	var a due
	if err := json.Unmarshal(m.Data(), &a); err != nil || a.Proposal == "" || a.Evidence == "" || a.Attempt < 2 {
		w.cfg.Logger.Error("capture: not a retry; skipped", "subject", m.Subject(), "err", err)
		_ = m.Term()
		return
	}
	if !w.attempt(ctx, m, a) {
		return
	}
	key := retryKey(a.Proposal, a.Evidence, a.Attempt)
	st, err := w.js.Stream(ctx, crjs.ScheduleStreamName)
	if err == nil {
		err = st.Purge(ctx, jetstream.WithPurgeSubject(crjs.FiredSubject(RetryKind, key)))
	}
	if err != nil {
		w.cfg.Logger.Warn("capture: removing a fired retry failed; it stays in the schedule stream", "key", key, "err", err)
	}
}
