package capture

import (
	"context"
	"errors"
	"sync"
	"time"

	crjs "github.com/crossrank/crossrank/events/jetstream"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// RetryCount counts the sources whose last fetch failed and that wait for
// their next attempt: each has exactly one one-shot retry schedule in the
// schedule stream until it fires, and then its fired copy until the
// worker has handled it and removed it. The transient failures are not
// events — 30,000 sources failing a dozen times each would bury the log —
// so this is where the desk learns how many are failing now (issue 42
// item 8: "1,785 of 30,000 sources captured, 412 failing").
//
// The count is the whole desk's, not one ranking's: a schedule names its
// item, not the item's ranking. It is asked of the server at most once per
// TTL, whatever the number of pages asking.
type RetryCount struct {
	js  jetstream.JetStream
	ttl time.Duration

	mu   sync.Mutex
	at   time.Time
	last int
}

// NewRetryCount counts the retries waiting on nc's JetStream, asking the
// server again after ttl (0: 10 seconds, the import page's refresh).
func NewRetryCount(nc *nats.Conn, ttl time.Duration) (*RetryCount, error) {
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	if ttl <= 0 {
		ttl = 10 * time.Second
	}
	return &RetryCount{js: js, ttl: ttl}, nil
}

// Retrying returns how many sources wait for a retry after a failed fetch.
func (c *RetryCount) Retrying(ctx context.Context) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.at.IsZero() && time.Since(c.at) < c.ttl {
		return c.last, nil
	}
	n, err := c.count(ctx)
	if err != nil {
		return 0, err
	}
	c.at, c.last = time.Now(), n
	return n, nil
}

// count asks the server: a consumer created on the pending schedules'
// subjects reports on creation how many messages match, counted by the
// stream's own per-subject index; it is deleted at once (and would expire
// by itself if that failed), having delivered nothing.
func (c *RetryCount) count(ctx context.Context) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	st, err := c.js.Stream(ctx, crjs.ScheduleStreamName)
	if errors.Is(err, jetstream.ErrStreamNotFound) {
		return 0, nil // no schedule yet: nothing has failed
	}
	if err != nil {
		return 0, err
	}
	cons, err := st.CreateConsumer(ctx, jetstream.ConsumerConfig{
		// Both the schedules still waiting and those fired but not yet
		// handled (".fired", a token more; removed once handled): retries
		// due while the sources' host is busy wait there, and they are
		// failing too. A source has one or the other.
		FilterSubject:     crjs.OnceSubject(RetryKind, ">"),
		DeliverPolicy:     jetstream.DeliverAllPolicy,
		AckPolicy:         jetstream.AckNonePolicy,
		InactiveThreshold: time.Minute,
		MemoryStorage:     true,
	})
	if err != nil {
		return 0, err
	}
	info := cons.CachedInfo()
	_ = st.DeleteConsumer(ctx, info.Name)
	return int(info.NumPending), nil
}
