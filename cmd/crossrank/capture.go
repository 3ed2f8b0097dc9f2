package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/netip"
	"strings"
	"sync"
	"time"

	"github.com/crossrank/crossrank/cmd/crossrank/capture"
	"github.com/crossrank/crossrank/web/desk"
	"github.com/crossrank/crossrank/web/site"
	"github.com/nats-io/nats.go/jetstream"
)

// capturing holds the settings (config.go) of the capture worker and of the scheduled
// re-check of captured sources, which serve runs unless told not to.
type capturing struct {
	allow        string
	off          bool
	recheckEvery time.Duration
	envErr       error            // a bad CROSSRANK_RECHECK_EVERY, unless the flag overrides it
	archive      *capture.Archive // once copies opened it
}

func (c *capturing) setRecheckEvery(s string) error {
	d, err := time.ParseDuration(s)
	if err == nil && d != 0 && d < time.Second {
		err = errors.New("at least 1s, or 0")
	}
	if err != nil {
		return fmt.Errorf("--recheck-every (CROSSRANK_RECHECK_EVERY) %q: %w", s, err)
	}
	c.recheckEvery = d
	return nil
}

// openArchive opens the captures' bucket once, for the worker and for the
// site's archived copies.
func (c *capturing) openArchive(ctx context.Context, e *env, replicas int) (*capture.Archive, error) {
	if c.archive != nil {
		return c.archive, nil
	}
	js, err := jetstream.New(e.nc)
	if err != nil {
		return nil, err
	}
	c.archive, err = capture.OpenArchive(ctx, js, replicas)
	return c.archive, err
}

// copies returns the archive as the public site and the desk read it.
// Copies already taken are served even when capturing is off.
func (c *capturing) copies(ctx context.Context, e *env, replicas int) (archivedCopies, error) {
	a, err := opened(ctx, e.start, "the capture bucket", func(ctx context.Context) (*capture.Archive, error) {
		return c.openArchive(ctx, e, replicas)
	})
	if err != nil {
		return archivedCopies{}, err
	}
	return archivedCopies{a}, nil
}

// archivedCopies serves the archive's WARC records to the public site,
// and their text with the quote marked to the desk.
type archivedCopies struct{ archive *capture.Archive }

var (
	_ site.Captures = archivedCopies{}
	_ desk.Passages = archivedCopies{}
)

// Open streams the record under sha256's body; the archive checks its
// digests on the first Open of each key.
func (a archivedCopies) Open(ctx context.Context, sha256 string) (*site.Capture, error) {
	o, err := a.archive.Open(ctx, sha256)
	if errors.Is(err, capture.ErrNotFound) {
		return nil, fmt.Errorf("%w: %w", site.ErrNoCapture, err)
	}
	if err != nil {
		return nil, err
	}
	return &site.Capture{Body: o, Size: o.Size, ContentType: o.Header.Get("Content-Type"), Fetched: o.Date, URL: o.TargetURI}, nil
}

// OpenRecord streams the whole record under sha256, as archived.
func (a archivedCopies) OpenRecord(ctx context.Context, sha256 string) (io.ReadCloser, int64, error) {
	rec, size, err := a.archive.OpenRecord(ctx, sha256)
	if errors.Is(err, capture.ErrNotFound) {
		return nil, 0, fmt.Errorf("%w: %w", site.ErrNoCapture, err)
	}
	if err != nil {
		return nil, 0, err
	}
	return io.NopCloser(rec), size, nil
}

// Passage reads the record under sha256 as the quote check does and
// locates excerpt in it.
func (a archivedCopies) Passage(ctx context.Context, sha256, excerpt string) (desk.Passage, error) {
	rec, err := a.archive.Get(ctx, sha256)
	if errors.Is(err, capture.ErrNotFound) {
		return desk.Passage{}, fmt.Errorf("%w: %w", site.ErrNoCapture, err)
	}
	if err != nil {
		return desk.Passage{}, err
	}
	p := capture.FindPassage(rec.Body, rec.Header.Get("Content-Type"), excerpt)
	return desk.Passage{URL: rec.TargetURI, Fetched: rec.Date, Text: p.Text, Start: p.Start, End: p.End, Checked: p.Checked}, nil
}

// start runs the capture worker until ctx ends.
func (c *capturing) start(ctx context.Context, e *env, replicas int, log *slog.Logger, wg *sync.WaitGroup) error {
	if c.envErr != nil {
		return c.envErr
	}
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
	archive, err := opened(ctx, e.start, "the capture bucket", func(ctx context.Context) (*capture.Archive, error) {
		return c.openArchive(ctx, e, replicas)
	})
	if err != nil {
		return err
	}
	w, err := opened(ctx, e.start, "the capture worker's streams", func(context.Context) (*capture.Worker, error) {
		return capture.NewWorker(e.nc, capture.WorkerConfig{Recorder: e.commands, Archive: archive,
			Fetcher: &capture.Fetcher{Allow: allow}, Replicas: replicas, Logger: log})
	})
	if err != nil {
		return err
	}
	log.Info("capture of cited pages enabled", "bucket", capture.Bucket, "allow", c.allow)
	wg.Go(func() { _ = w.Run(ctx) })
	if c.recheckEvery == 0 {
		log.Info("re-check of captured sources is off on this server")
		return nil
	}
	r, err := opened(ctx, e.start, "the re-check schedule", func(context.Context) (*capture.Rechecker, error) {
		return capture.NewRechecker(e.nc, capture.RecheckConfig{Recorder: e.commands, Sources: e.read, Archive: archive,
			Fetcher: &capture.Fetcher{Allow: allow}, Every: c.recheckEvery, Replicas: replicas, Logger: log})
	})
	if err != nil {
		return err
	}
	log.Info("re-check of captured sources enabled", "every", c.recheckEvery)
	wg.Go(func() { _ = r.Run(ctx) })
	return nil
}
