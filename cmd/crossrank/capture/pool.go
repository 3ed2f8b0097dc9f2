package capture

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// fetchPool pulls a message from cons whenever one of n slots is free and
// handles it in a goroutine of its own, so that a page that drips for the
// whole fetch deadline holds one slot, not the queue. It returns when ctx
// ends (after the captures in flight have finished: each records what it
// fetched) or a fetch fails for a reason other than finding nothing.
func fetchPool(ctx context.Context, cons jetstream.Consumer, n int, handle func(context.Context, jetstream.Msg)) error {
	slots := make(chan struct{}, n)
	var wg sync.WaitGroup
	defer wg.Wait()
	for {
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
			return ctx.Err()
		}
		fctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		batch, err := cons.Fetch(1, jetstream.FetchContext(fctx))
		if err != nil {
			cancel()
			<-slots
			return err
		}
		taken := false
		for m := range batch.Messages() {
			taken = true
			wg.Go(func() {
				defer func() { <-slots }()
				handle(ctx, m)
			})
		}
		err = batch.Error()
		cancel()
		if !taken {
			<-slots
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil && !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, nats.ErrTimeout) {
			return err
		}
	}
}

// hostSlots bounds the fetches in flight to each host, so that many
// citations of one slow or dead site take at most limit of the pool's
// slots and every other site keeps the rest.
type hostSlots struct {
	limit int
	mu    sync.Mutex
	n     map[string]int
}

func newHostSlots(limit int) *hostSlots { return &hostSlots{limit: limit, n: map[string]int{}} }

// take reports whether a fetch from host may start now, and if so counts
// it until give.
func (h *hostSlots) take(host string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.n[host] >= h.limit {
		return false
	}
	h.n[host]++
	return true
}

func (h *hostSlots) give(host string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.n[host]--; h.n[host] <= 0 {
		delete(h.n, host)
	}
}

// hostOf returns the host a URL names, lower case; "" when it names none
// (the fetch refuses it at once).
func hostOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return strings.ToLower(u.Hostname())
}
