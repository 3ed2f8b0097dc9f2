package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/crossrank/crossrank/web"
)

// exportCmd writes the public site of the latest editions into a folder:
// static HTML in both languages, the JSON API's answers, the Atom feeds.
// It brings the read models up to the stream's end first. With the
// embedded NATS server it needs the data directory to itself; while
// `crossrank serve` runs, use its --site-dir instead.
func exportCmd(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("export", flag.ExitOnError)
	var c common
	c.register(fs)
	out := fs.String("out", envOr("CROSSRANK_EXPORT_OUT", ""), "folder to write the site into, replaced atomically (CROSSRANK_EXPORT_OUT)")
	fs.Parse(args)
	if *out == "" {
		return exitError{2, errors.New("export: --out DIR is required")}
	}
	e, err := c.openEvents(ctx, newLogger())
	if err != nil {
		return err
	}
	defer e.close()
	if err := e.openRead(ctx); err != nil {
		return err
	}
	runCtx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() { e.read.Run(runCtx, e.events, e.log) })
	defer func() { stop(); wg.Wait() }()
	last, err := e.events.LastSequence(ctx)
	if err != nil {
		return err
	}
	if err := e.read.WaitFor(ctx, last); err != nil {
		return err
	}
	st, err := web.ExportSite(ctx, e.read, *out, time.Now())
	if err != nil {
		return err
	}
	fmt.Printf("exported %d files (%d bytes) to %s in %.2fs\n", st.Files, st.Bytes, *out, st.Duration.Seconds())
	return nil
}

// publishing holds serve's flags for what happens on each publish: the
// static export and the webhook.
type publishing struct {
	siteDir       string
	webhookURL    string
	webhookSecret string
}

// registerPublishing adds serve's --site-dir, --webhook and
// --webhook-secret flags (and their env twins).
func registerPublishing(fs *flag.FlagSet) *publishing {
	p := &publishing{}
	fs.StringVar(&p.siteDir, "site-dir", envOr("CROSSRANK_SITE_DIR", ""), "keep a static export of the public site in this folder, rewritten atomically on each publish (CROSSRANK_SITE_DIR)")
	fs.StringVar(&p.webhookURL, "webhook", envOr("CROSSRANK_WEBHOOK_URL", ""), "POST each published edition to this URL (CROSSRANK_WEBHOOK_URL)")
	fs.StringVar(&p.webhookSecret, "webhook-secret", envOr("CROSSRANK_WEBHOOK_SECRET", ""), "sign webhook bodies with HMAC-SHA256 under this secret (CROSSRANK_WEBHOOK_SECRET)")
	return p
}

// start runs the export and the webhook sender until ctx ends.
func (p *publishing) start(ctx context.Context, e *env, log *slog.Logger, wg *sync.WaitGroup) error {
	if p.siteDir != "" {
		wg.Go(func() {
			if err := web.ExportSiteOnPublish(ctx, e.read, p.siteDir, log); err != nil {
				log.Error("site export stopped", "err", err)
			}
		})
	}
	if p.webhookURL == "" {
		return nil
	}
	if p.webhookSecret == "" {
		fmt.Fprintln(os.Stderr, "crossrank: warning: --webhook without --webhook-secret sends unsigned bodies")
	}
	return startWebhook(ctx, e, p.webhookURL, p.webhookSecret, log, wg)
}
