package webhook

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/crossrank/crossrank/cmd/crossrank/delivery"
	"github.com/crossrank/crossrank/events"
)

// The attempts of one delivery: posting, retrying with backoff, and keeping
// the message in progress while waiting.

// post sends body until the receiver answers 2xx or the attempts run out,
// keeping the message in progress while it waits.
func (s *Sender) post(ctx context.Context, m jetstream.Msg, id string, d *events.EditionPublished, body []byte) (status, attempt int, err error) {
	p := delivery.Policy{Attempts: s.cfg.MaxAttempts, First: s.cfg.Backoff, Max: s.cfg.MaxBackoff}
	return delivery.Retry(ctx, p, func() { _ = m.InProgress() }, s.cfg.AckWait/3,
		func(attempt int) (int, error) { return s.once(ctx, id, d, body, attempt) },
		func(attempt int, wait time.Duration, err error) {
			s.cfg.Logger.Info("webhook attempt failed; retrying", "url", s.shown, "edition", d.Number,
				"attempt", attempt, "wait", wait, "err", err)
		})
}

// requestLimit bounds one attempt whatever the client's own timeout.
const requestLimit = 30 * time.Second

// once makes one attempt; id is the webhook-id, the edition's event id.
//
// An attempt under way is finished even when the sender is stopping: the
// receiver may already hold the delivery, and cutting the request would
// leave it unrecorded, so the next sender would post it again. The client's
// timeout (and requestLimit) bound how long a stop waits for it.
func (s *Sender) once(ctx context.Context, id string, d *events.EditionPublished, body []byte, attempt int) (int, error) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), requestLimit)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.cfg.URL, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Crossrank-Webhook/1")
	req.Header.Set("X-Crossrank-Event", "edition-published")
	req.Header.Set(DeliveryHeader, d.Ranking+"/"+strconv.Itoa(d.Number))
	req.Header.Set("X-Crossrank-Attempt", strconv.Itoa(attempt))
	if s.key != nil {
		ts := s.cfg.Now().Unix()
		h := req.Header
		h.Set(IDHeader, id)
		h.Set(TimestampHeader, strconv.FormatInt(ts, 10))
		h.Set(StandardSignatureHeader, SignStandard(s.key, id, ts, body))
		if s.legacy {
			h.Set(SignatureHeader, Sign(s.cfg.Secret, body))
		}
	}
	res, err := s.cfg.Client.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // its message would repeat the URL, secrets included
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
