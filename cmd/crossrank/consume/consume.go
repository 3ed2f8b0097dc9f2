// Package consume holds the loop every durable-consumer worker of the
// server runs (the capture worker, the re-checker, the scheduler): fetch
// one message at a time, hand it over, and ride out NATS outages.
package consume

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Run calls consume until ctx ends, and returns nil then; after
// any other return it logs the error under name and, so as to ride out a
// NATS outage, tries again after a pause.
func Run(ctx context.Context, log *slog.Logger, name string, consume func(context.Context) error) error {
	for {
		err := consume(ctx)
		if ctx.Err() != nil {
			return nil
		}
		log.Warn(name+": consumer interrupted; retrying", "err", err)
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(time.Second):
		}
	}
}

// FetchEach fetches messages from cons one at a time and hands each to
// handle, until ctx ends or a fetch fails for a reason other than finding
// nothing to fetch.
func FetchEach(ctx context.Context, cons jetstream.Consumer, handle func(context.Context, jetstream.Msg)) error {
	for {
		fctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		batch, err := cons.Fetch(1, jetstream.FetchContext(fctx))
		if err != nil {
			cancel()
			return err
		}
		for m := range batch.Messages() {
			handle(ctx, m)
		}
		err = batch.Error()
		cancel()
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil && !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, nats.ErrTimeout) {
			return err
		}
	}
}

// Heartbeat tells the server, every third of ackWait, that m is still
// being worked on, until the returned function is called.
func Heartbeat(m jetstream.Msg, ackWait time.Duration) (stop func()) {
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(max(ackWait/3, 10*time.Millisecond))
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				_ = m.InProgress()
			}
		}
	}()
	return func() { close(done) }
}
