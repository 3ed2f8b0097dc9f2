package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"

	"github.com/crossrank/crossrank/cmd/crossrank/mail"
)

// mailing is how the server mails its users: --smtp-url and --mail-from.
type mailing struct {
	smtpURL string
	from    string
}

// on reports whether the server sends mail.
func (m mailing) on() bool { return m.smtpURL != "" }

// service opens the mail buckets and returns the mail service; nil when
// the server sends no mail. Mails link to the desk, so they need the
// site's public address.
func (m mailing) service(ctx context.Context, e *env, replicas int, publicURL string) (*mail.Service, error) {
	if !m.on() {
		return nil, nil
	}
	if publicURL == "" {
		return nil, errors.New("--smtp-url needs --public-url (CROSSRANK_PUBLIC_URL): mails link to the desk")
	}
	if m.from == "" {
		return nil, errors.New("--smtp-url needs --mail-from (CROSSRANK_MAIL_FROM), e.g. \"Crossrank <desk@rank.example>\"")
	}
	relay, err := mail.ParseRelay(m.smtpURL, m.from)
	if err != nil {
		return nil, fmt.Errorf("--smtp-url: %w", err)
	}
	book, err := mail.OpenBook(ctx, e.nc, replicas)
	if err != nil {
		return nil, err
	}
	return &mail.Service{Book: book, Relay: relay, Compose: mail.Composer{PublicURL: publicURL},
		LastSequence: e.events.LastSequence}, nil
}

// startMail runs the mail worker beside the server, when it sends mail.
func startMail(ctx context.Context, e *env, svc *mail.Service, replicas int, log *slog.Logger, wg *sync.WaitGroup) error {
	if svc == nil {
		return nil
	}
	w, err := mail.NewWorker(e.nc, mail.Config{Service: svc, Inbox: e.read, Replicas: replicas, Logger: log})
	if err != nil {
		return err
	}
	wg.Go(func() { _ = w.Run(ctx) })
	return nil
}
