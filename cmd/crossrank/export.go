package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/crossrank/crossrank/domain/bundle"
	"github.com/crossrank/crossrank/web/site"
)

// parseExport parses `crossrank export --out DIR`: write the public site
// of the latest editions into a folder — static HTML in both languages, the
// JSON API's answers, the Atom feeds — after bringing the read models up to
// the stream's end. Beside a running server the server writes it, from its
// own read models.
func parseExport(args []string, w io.Writer) (*storeCommand, error) {
	fs, sc := newFlags("export", w)
	var out string
	settings{fs}.str(&out, "out", "CROSSRANK_EXPORT_OUT", "", "folder to write the site into, replaced atomically")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if out == "" || fs.NArg() != 0 {
		return nil, usageError("usage: crossrank export --out DIR")
	}
	dir, err := filepath.Abs(out)
	if err != nil {
		return nil, err
	}
	// A server resolves nothing against its own working folder.
	sc.forward = []string{"--out", dir}
	sc.run = func(ctx context.Context, e *env, w io.Writer) error {
		stop, err := e.follow(ctx)
		if err != nil {
			return err
		}
		defer stop()
		key, err := signingKey(e.data, e.log)
		if err != nil {
			return err
		}
		st, err := site.ExportWithBundles(ctx, e.read, bundle.NewProducer(e.events, key), dir, time.Now())
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "exported %d files (%d bytes) to %s in %.2fs\n", st.Files, st.Bytes, dir, st.Duration.Seconds())
		return nil
	}
	return sc, nil
}

// publishing holds serve's settings (config.go) for what happens on each publish: the
// static export and the webhook.
type publishing struct {
	siteDir       string
	webhookURL    string
	webhookSecret string
	chatAllow     string // non-public prefixes the rankings' chat webhooks may reach (CIDR,…)
}

// start runs the export and the webhook sender until ctx ends.
func (p *publishing) start(ctx context.Context, e *env, log *slog.Logger, wg *sync.WaitGroup) error {
	if p.siteDir != "" {
		key, err := signingKey(e.data, log)
		if err != nil {
			return err
		}
		bundles := bundle.NewProducer(e.events, key)
		wg.Go(func() {
			if err := site.ExportOnPublish(ctx, e.read, bundles, p.siteDir, log); err != nil {
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
