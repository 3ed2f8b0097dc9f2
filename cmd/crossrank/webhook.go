package main

import (
	"context"
	"log/slog"
	"sync"

	"github.com/crossrank/crossrank/cmd/crossrank/webhook"
)

// startWebhook runs the webhook sender for url until ctx ends.
func startWebhook(ctx context.Context, e *env, url, secret string, log *slog.Logger, wg *sync.WaitGroup) error {
	s, err := webhook.New(e.nc, e.events, webhook.Config{URL: url, Secret: secret, Logger: log})
	if err != nil {
		return err
	}
	log.Info("webhook enabled", "url", webhook.Redact(url), "signed", secret != "")
	wg.Go(func() { _ = s.Run(ctx) })
	return nil
}
