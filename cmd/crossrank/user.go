package main

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"flag"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web"
)

// userCmd manages users: add, list, grant, revoke, passwd. Each is a command
// on the user's event stream, run as the command-line actor.
func userCmd(ctx context.Context, args []string) error {
	if len(args) == 0 {
		return exitError{2, fmt.Errorf("usage: crossrank user add|list|grant|revoke|passwd ARGS")}
	}
	sub, args := args[0], args[1:]
	fs := flag.NewFlagSet("user "+sub, flag.ExitOnError)
	var c common
	c.register(fs)
	roles := fs.String("role", "editor", "comma-separated roles: editor, reviewer, publisher")
	password := fs.String("password", "", "password; empty: generate one and print it")
	display := fs.String("display-name", "", "display name")
	fs.Parse(reorder(args))
	pos := fs.Args()
	e, err := c.openEvents(ctx, newLogger())
	if err != nil {
		return err
	}
	defer e.close()
	h, sys := e.commands, domain.System()
	id := events.NewID(h.Now())
	switch {
	case sub == "add" && len(pos) == 1:
		pw, generated := *password, false
		if pw == "" {
			pw, generated = randomPassword(), true
		}
		hash, err := web.HashPassword(pw)
		if err != nil {
			return err
		}
		if _, err := h.RegisterUser(ctx, sys, id, domain.RegisterUser{Username: pos[0], DisplayName: *display,
			PasswordHash: hash, Roles: strings.Split(*roles, ",")}); err != nil {
			return err
		}
		fmt.Printf("added user %s (%s)\n", pos[0], *roles)
		if generated {
			fmt.Printf("password (shown once): %s\n", pw)
		}
	case sub == "passwd" && len(pos) == 1:
		pw := *password
		if pw == "" {
			pw = randomPassword()
			fmt.Printf("new password (shown once): %s\n", pw)
		}
		hash, err := web.HashPassword(pw)
		if err != nil {
			return err
		}
		if _, err := h.ChangePassword(ctx, sys, id, pos[0], hash); err != nil {
			return err
		}
	case sub == "grant" && len(pos) == 2:
		if _, err := h.GrantRole(ctx, sys, id, pos[0], pos[1]); err != nil {
			return err
		}
		fmt.Printf("granted %s to %s\n", pos[1], pos[0])
	case sub == "revoke" && len(pos) == 2:
		if _, err := h.RevokeRole(ctx, sys, id, pos[0], pos[1]); err != nil {
			return err
		}
		fmt.Printf("revoked %s from %s\n", pos[1], pos[0])
	case sub == "list" && len(pos) == 0:
		if err := e.openRead(ctx); err != nil {
			return err
		}
		if err := catchUp(ctx, e); err != nil {
			return err
		}
		users, err := e.read.Users(ctx)
		if err != nil {
			return err
		}
		tw := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "USER\tROLES\tREGISTERED")
		for _, u := range users {
			fmt.Fprintf(tw, "%s\t%s\t%s\n", u.Username, strings.Join(u.Roles, ","), u.RegisteredAt)
		}
		return tw.Flush()
	default:
		return exitError{2, fmt.Errorf("usage: crossrank user add NAME --role R | list | grant NAME ROLE | revoke NAME ROLE | passwd NAME")}
	}
	return nil
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

func randomPassword() string {
	b := make([]byte, 12)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// catchUp applies every event up to the current end of the stream.
func catchUp(ctx context.Context, e *env) error {
	from, _ := e.read.Checkpoint()
	batch := make([]events.Event, 0, 1000)
	err := e.events.Replay(ctx, from+1, func(ev events.Event) error {
		batch = append(batch, ev)
		if len(batch) == cap(batch) {
			err := e.read.Apply(ctx, batch)
			batch = batch[:0]
			return err
		}
		return nil
	})
	if err != nil {
		return err
	}
	return e.read.Apply(ctx, batch)
}
