package scheduler

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// The consuming loop of the capture worker (cmd/crossrank/capture), kept
// apart so that neither package imports the other.

// runConsuming calls consume until ctx ends; after any other return it logs
// the error under name and, so as to ride out a NATS outage, tries again
// after a pause.
func runConsuming(ctx context.Context, log *slog.Logger, name string, consume func(context.Context) error) {
	for {
		err := consume(ctx)
		if ctx.Err() != nil {
			return
		}
		log.Warn(name+": consumer interrupted; retrying", "err", err)
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Second):
		}
	}
}

// fetchEach fetches messages from cons one at a time and hands each to
// handle, until ctx ends or a fetch fails for a reason other than finding
// nothing to fetch.
func fetchEach(ctx context.Context, cons jetstream.Consumer, handle func(context.Context, jetstream.Msg)) error {
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
