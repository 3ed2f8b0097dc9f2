package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/crossrank/crossrank/cmd/crossrank/mail"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/auth"
)

const userUsage = "usage: crossrank user add NAME --role R[,R…] [--entries RANKING/ENTRY[,…]] [--display-name D] [--password P] [--email ADDR] | list | grant NAME ROLE | revoke NAME ROLE | reset NAME | passwd NAME --password P | email NAME [ADDR]\n" +
	"  --email and email set a confirmed mail address (the operator vouches for it); email NAME \"\" erases it; email NAME shows it.\n" +
	"  --entries scopes a vendor account (--role vendor) to its own entries.\n" +
	"  add prints a one-time link (valid 72 h) on which the person chooses their own password; reset signs them out,\n" +
	"  revokes their tokens and prints a new link. --password only when you, the operator, are that person.\n" +
	"  Links start with --public-url (CROSSRANK_PUBLIC_URL)."

// parseUser parses `crossrank user add|list|grant|revoke|passwd …`. Each is
// a command on the user's event stream, run as the command-line actor.
func parseUser(args []string, w io.Writer) (*storeCommand, error) {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		if len(args) > 0 && isHelp(args[0]) {
			fmt.Fprintln(w, userUsage)
			return nil, errHelp
		}
		return nil, usageError(userUsage)
	}
	sub, args := args[0], args[1:]
	fs, sc := newFlags("user "+sub, w)
	roles := fs.String("role", "editor", "comma-separated roles: "+strings.Join(domain.Roles, ", "))
	password := fs.String("password", "", "the password, only when you, the operator, are this user; empty: print a one-time link on which the user chooses it")
	publicURL := fs.String("public-url", os.Getenv("CROSSRANK_PUBLIC_URL"), "the site's public address, the start of the printed links (CROSSRANK_PUBLIC_URL)")
	display := fs.String("display-name", "", "display name")
	email := fs.String("email", "", "a confirmed mail address for the user")
	entries := fs.String("entries", "", "with --role vendor: the vendor's own entries, comma-separated ranking/entry")
	if err := fs.Parse(reorder(args)); err != nil {
		return nil, err
	}
	pos := fs.Args()
	if *email != "" {
		if _, err := mail.CheckAddress(*email); err != nil {
			return nil, fmt.Errorf("--email %q: not one bare e-mail address", *email)
		}
	}
	switch {
	case sub == "add" && len(pos) == 1 && *password == "":
		sc.run = func(ctx context.Context, e *env, out io.Writer) error {
			token, hash := auth.NewLinkToken()
			if _, err := e.commands.InviteUser(ctx, domain.System(), domain.InviteUser{CommandID: events.NewID(e.commands.Now()),
				Username: pos[0], DisplayName: *display, Roles: strings.Split(*roles, ","), Entries: splitEntries(*entries),
				LinkHash: hash}); err != nil {
				return err
			}
			fmt.Fprintf(out, "added user %s (%s)\n", pos[0], *roles)
			printLink(out, *publicURL, pos[0], token)
			return addEmail(ctx, e, sc.common.replicas, pos[0], *email, out)
		}
	case sub == "add" && len(pos) == 1:
		// The operator adds themself: they are the person who knows it.
		sc.run = func(ctx context.Context, e *env, out io.Writer) error {
			hash, err := auth.HashPassword(*password)
			if err != nil {
				return err
			}
			if _, err := e.commands.RegisterUser(ctx, domain.System(), domain.RegisterUser{CommandID: events.NewID(e.commands.Now()),
				Username: pos[0], DisplayName: *display, PasswordHash: hash, Roles: strings.Split(*roles, ","),
				Entries: splitEntries(*entries)}); err != nil {
				return err
			}
			fmt.Fprintf(out, "added user %s (%s)\n", pos[0], *roles)
			return addEmail(ctx, e, sc.common.replicas, pos[0], *email, out)
		}
	case (sub == "reset" || sub == "passwd" && *password == "") && len(pos) == 1:
		sc.run = func(ctx context.Context, e *env, out io.Writer) error {
			token, hash := auth.NewLinkToken()
			if _, err := e.commands.ResetPassword(ctx, domain.System(), domain.ResetPassword{
				CommandID: events.NewID(e.commands.Now()), User: pos[0], LinkHash: hash}); err != nil {
				return err
			}
			fmt.Fprintf(out, "reset the password of %s: sessions ended, API tokens and feed token revoked\n", pos[0])
			printLink(out, *publicURL, pos[0], token)
			return nil
		}
	case sub == "passwd" && len(pos) == 1:
		// The operator changes their own password.
		sc.run = func(ctx context.Context, e *env, out io.Writer) error {
			hash, err := auth.HashPassword(*password)
			if err != nil {
				return err
			}
			if _, err := e.commands.ChangePassword(ctx, domain.System(), domain.ChangePassword{
				CommandID: events.NewID(e.commands.Now()), User: pos[0], PasswordHash: hash}); err != nil {
				return err
			}
			fmt.Fprintf(out, "changed the password of %s\n", pos[0])
			return nil
		}
	case sub == "grant" && len(pos) == 2:
		sc.run = func(ctx context.Context, e *env, out io.Writer) error {
			if _, err := e.commands.GrantRole(ctx, domain.System(), domain.GrantRole{
				CommandID: events.NewID(e.commands.Now()), User: pos[0], Role: pos[1]}); err != nil {
				return err
			}
			fmt.Fprintf(out, "granted %s to %s\n", pos[1], pos[0])
			return nil
		}
	case sub == "revoke" && len(pos) == 2:
		sc.run = func(ctx context.Context, e *env, out io.Writer) error {
			if _, err := e.commands.RevokeRole(ctx, domain.System(), domain.RevokeRole{
				CommandID: events.NewID(e.commands.Now()), User: pos[0], Role: pos[1]}); err != nil {
				return err
			}
			fmt.Fprintf(out, "revoked %s from %s\n", pos[1], pos[0])
			return nil
		}
	case sub == "email" && len(pos) == 1:
		sc.run = func(ctx context.Context, e *env, out io.Writer) error {
			return showEmail(ctx, e, sc.common.replicas, pos[0], out)
		}
	case sub == "email" && len(pos) == 2:
		sc.run = func(ctx context.Context, e *env, out io.Writer) error {
			u, err := e.commands.User(ctx, pos[0])
			if err != nil {
				return err
			}
			if !u.Exists() {
				return fmt.Errorf("user %s: %w", pos[0], domain.ErrUserMissing)
			}
			if pos[1] == "" {
				if err := setEmail(ctx, e, sc.common.replicas, pos[0], "", out); err != nil {
					return err
				}
				fmt.Fprintf(out, "erased the mail address and mail settings of %s\n", pos[0])
				return nil
			}
			return setEmail(ctx, e, sc.common.replicas, pos[0], pos[1], out)
		}
	case sub == "list" && len(pos) == 0:
		sc.run = func(ctx context.Context, e *env, out io.Writer) error {
			stop, err := e.follow(ctx)
			if err != nil {
				return err
			}
			defer stop()
			users, err := e.read.Users(ctx)
			if err != nil {
				return err
			}
			tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "USER\tROLES\tREGISTERED")
			for _, u := range users {
				fmt.Fprintf(tw, "%s\t%s\t%s\n", u.Username, strings.Join(u.Roles, ","), u.RegisteredAt)
			}
			return tw.Flush()
		}
	default:
		return nil, usageError(userUsage)
	}
	return sc, nil
}

// printLink prints a one-time link, shown once: only its hash is stored.
func printLink(out io.Writer, publicURL, user, token string) {
	fmt.Fprintf(out, "one-time link (shown once, valid %s): %s\n", domain.InvitationTTL, auth.WelcomeURL(publicURL, user, token))
	if publicURL == "" {
		fmt.Fprintln(out, "(prefix it with the site's address, or pass --public-url)")
	}
}

// reorder moves flags before positional arguments, so "user add bob --role x"
// parses like "user add --role x bob".
func reorder(args []string) []string {
	var flags, pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if strings.HasPrefix(a, "-") {
			flags = append(flags, a)
			if !strings.Contains(a, "=") && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
				flags = append(flags, args[i+1])
				i++
			}
			continue
		}
		pos = append(pos, a)
	}
	return append(flags, pos...)
}

// splitEntries reads --entries: nil when empty (the domain then refuses a
// vendor without entries, and accepts every other role).
func splitEntries(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' })
}
