package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"

	"github.com/crossrank/crossrank/cmd/crossrank/mail"
	"github.com/crossrank/crossrank/domain"
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
	book, err := opened(ctx, e.start, "the mail bucket", func(ctx context.Context) (*mail.Book, error) {
		return mail.OpenBook(ctx, e.nc, replicas)
	})
	if err != nil {
		return nil, err
	}
	return &mail.Service{Book: book, Relay: relay, Compose: mail.Composer{PublicURL: publicURL},
		LastSequence: e.events.LastSequence}, nil // Users: the server's handler, once built (newServer)
}

// startMail runs the mail worker beside the server, when it sends mail.
func startMail(ctx context.Context, e *env, svc *mail.Service, replicas int, log *slog.Logger, wg *sync.WaitGroup) error {
	if svc == nil {
		return nil
	}
	w, err := opened(ctx, e.start, "the mail worker's streams", func(context.Context) (*mail.Worker, error) {
		return mail.NewWorker(e.nc, mail.Config{Service: svc, Inbox: e.read, Replicas: replicas, Logger: log})
	})
	if err != nil {
		return err
	}
	wg.Go(func() { _ = w.Run(ctx) })
	return nil
}

// setEmail gives user a confirmed address as the operator (crossrank user
// add --email, user email); "" erases it. The address and the user's
// choices live in the mail bucket, not in the event log.
func setEmail(ctx context.Context, e *env, replicas int, user, address string, out io.Writer) error {
	book, err := mail.OpenBook(ctx, e.nc, replicas)
	if err != nil {
		return err
	}
	svc := &mail.Service{Book: book, LastSequence: e.events.LastSequence, Users: e.commands}
	if err := svc.SetConfirmed(ctx, domain.System(), user, address); err != nil {
		return err
	}
	if address != "" {
		fmt.Fprintf(out, "mail to %s goes to %s (confirmed by the operator)\n", user, address)
	}
	return nil
}

// addEmail sets the address `user add --email` names, if it names one.
func addEmail(ctx context.Context, e *env, replicas int, user, address string, out io.Writer) error {
	if address == "" {
		return nil
	}
	return setEmail(ctx, e, replicas, user, address, out)
}

// showEmail prints a user's mail address (`user email NAME`).
func showEmail(ctx context.Context, e *env, replicas int, user string, out io.Writer) error {
	book, err := mail.OpenBook(ctx, e.nc, replicas)
	if err != nil {
		return err
	}
	a, err := (&mail.Service{Book: book}).Account(ctx, user)
	if err != nil {
		return err
	}
	switch {
	case a.Address != "":
		fmt.Fprintf(out, "%s: %s (confirmed)\n", user, a.Address)
	case a.Pending != "":
		fmt.Fprintf(out, "%s: none confirmed; %s awaits its link\n", user, a.Pending)
	default:
		fmt.Fprintf(out, "%s: no mail address\n", user)
	}
	return nil
}
