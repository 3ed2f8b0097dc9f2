package main

import (
	"context"
	"fmt"
	"log/slog"
	"net/netip"
	"strings"
	"sync"

	"github.com/crossrank/crossrank/cmd/crossrank/webhook"
)

// startWebhook runs the webhook sender for url until ctx ends.
func startWebhook(ctx context.Context, e *env, url, secret string, log *slog.Logger, wg *sync.WaitGroup) error {
	// The settings are checked once; only the streams are waited for.
	if err := webhook.Check(url, secret); err != nil {
		return err
	}
	s, err := opened(ctx, e.start, "the webhook's consumer", func(context.Context) (*webhook.Sender, error) {
		return webhook.New(e.nc, e.events, webhook.Config{URL: url, Secret: secret, Logger: log})
	})
	if err != nil {
		return err
	}
	log.Info("webhook enabled", "url", webhook.Redact(url), "signed", secret != "")
	wg.Go(func() { _ = s.Run(ctx) })
	return nil
}

// startChat runs the rankings' chat webhooks until ctx ends; allow lists
// the non-public prefixes (CIDR, comma-separated) they may reach.
func startChat(ctx context.Context, e *env, publicURL, allow string, log *slog.Logger, wg *sync.WaitGroup) error {
	var prefixes []netip.Prefix
	for s := range strings.SplitSeq(allow, ",") {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		p, err := netip.ParsePrefix(s)
		if err != nil {
			return fmt.Errorf("--chat-allow (CROSSRANK_CHAT_ALLOW): %w", err)
		}
		prefixes = append(prefixes, p.Masked())
	}
	c, err := opened(ctx, e.start, "the chat webhooks' consumer", func(context.Context) (*webhook.Chat, error) {
		return webhook.NewChat(e.nc, e.events, webhook.ChatConfig{Commands: e.commands, PublicURL: publicURL, Allow: prefixes, Logger: log})
	})
	if err != nil {
		return err
	}
	wg.Go(func() { _ = c.Run(ctx) })
	return nil
}
