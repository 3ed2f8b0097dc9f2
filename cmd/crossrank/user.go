package main

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/auth"
)

const userUsage = "usage: crossrank user add NAME --role R[,R…] [--password P] [--display-name D] | list | grant NAME ROLE | revoke NAME ROLE | passwd NAME [--password P]"

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
	password := fs.String("password", "", "password; empty: generate one and print it")
	display := fs.String("display-name", "", "display name")
	if err := fs.Parse(reorder(args)); err != nil {
		return nil, err
	}
	pos := fs.Args()
	switch {
	case sub == "add" && len(pos) == 1:
		sc.run = func(ctx context.Context, e *env, out io.Writer) error {
			pw, hash, err := hashPassword(*password)
			if err != nil {
				return err
			}
			if _, err := e.commands.RegisterUser(ctx, domain.System(), domain.RegisterUser{CommandID: events.NewID(e.commands.Now()),
				Username: pos[0], DisplayName: *display, PasswordHash: hash, Roles: strings.Split(*roles, ",")}); err != nil {
				return err
			}
			fmt.Fprintf(out, "added user %s (%s)\n", pos[0], *roles)
			if *password == "" {
				fmt.Fprintf(out, "password (shown once): %s\n", pw)
			}
			return nil
		}
	case sub == "passwd" && len(pos) == 1:
		sc.run = func(ctx context.Context, e *env, out io.Writer) error {
			pw, hash, err := hashPassword(*password)
			if err != nil {
				return err
			}
			if _, err := e.commands.ChangePassword(ctx, domain.System(), domain.ChangePassword{
				CommandID: events.NewID(e.commands.Now()), User: pos[0], PasswordHash: hash}); err != nil {
				return err
			}
			fmt.Fprintf(out, "changed the password of %s\n", pos[0])
			if *password == "" {
				fmt.Fprintf(out, "new password (shown once): %s\n", pw)
			}
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

// hashPassword returns the password given, or a generated one if none
// is, and its hash.
func hashPassword(given string) (pw, hash string, err error) {
	pw = given
	if pw == "" {
		pw = randomPassword()
	}
	hash, err = auth.HashPassword(pw)
	return pw, hash, err
}

func randomPassword() string {
	b := make([]byte, 12)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}
