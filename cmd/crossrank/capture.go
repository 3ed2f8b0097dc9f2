package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"net/netip"
	"os"
	"strings"
	"sync"

	"github.com/crossrank/crossrank/cmd/crossrank/capture"
	"github.com/nats-io/nats.go/jetstream"
)

// capturing holds the flags of the capture worker, which serve always
// runs unless told not to.
type capturing struct {
	allow string
	off   bool
}

func registerCapture(fs *flag.FlagSet) *capturing {
	c := &capturing{}
	fs.StringVar(&c.allow, "capture-allow", envOr("CROSSRANK_CAPTURE_ALLOW", ""),
		"let the capture of cited pages reach these non-public prefixes (CIDR,…), e.g. 127.0.0.1/32 for a local test page; cloud metadata addresses stay refused (CROSSRANK_CAPTURE_ALLOW)")
	fs.BoolVar(&c.off, "no-capture", os.Getenv("CROSSRANK_NO_CAPTURE") != "",
		"do not fetch and archive the pages evidence cites (CROSSRANK_NO_CAPTURE)")
	return c
}

// start runs the capture worker until ctx ends.
func (c *capturing) start(ctx context.Context, e *env, replicas int, log *slog.Logger, wg *sync.WaitGroup) error {
	if c.off {
		log.Info("capture of cited pages is off")
		return nil
	}
	var allow []netip.Prefix
	for s := range strings.SplitSeq(c.allow, ",") {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		p, err := netip.ParsePrefix(s)
		if err != nil {
			return fmt.Errorf("--capture-allow (CROSSRANK_CAPTURE_ALLOW): %w", err)
		}
		allow = append(allow, p.Masked())
	}
	js, err := jetstream.New(e.nc)
	if err != nil {
		return err
	}
	archive, err := capture.OpenArchive(ctx, js, replicas)
	if err != nil {
		return err
	}
	w, err := capture.NewWorker(e.nc, capture.WorkerConfig{Recorder: e.commands, Archive: archive,
		Fetcher: &capture.Fetcher{Allow: allow}, Logger: log})
	if err != nil {
		return err
	}
	log.Info("capture of cited pages enabled", "bucket", capture.Bucket, "allow", c.allow)
	wg.Go(func() { _ = w.Run(ctx) })
	return nil
}
