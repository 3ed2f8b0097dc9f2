package main

import (
	"context"
	"flag"
	"fmt"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web"
)

// tokenCmd creates an API token for a user and prints it once.
func tokenCmd(ctx context.Context, args []string) error {
	if len(args) == 0 || args[0] != "create" {
		return exitError{2, fmt.Errorf("usage: crossrank token create USER [--name LABEL] [--days N]")}
	}
	fs := flag.NewFlagSet("token create", flag.ExitOnError)
	var c common
	c.register(fs)
	name := fs.String("name", "cli", "a label for the token")
	days := fs.Int("days", 90, "days until the token expires; 0: never")
	fs.Parse(reorder(args[1:]))
	if fs.NArg() != 1 {
		return exitError{2, fmt.Errorf("usage: crossrank token create USER [--name LABEL] [--days N]")}
	}
	e, err := c.openEvents(ctx, newLogger())
	if err != nil {
		return err
	}
	defer e.close()
	now := e.commands.Now()
	id, _, full, hash := web.NewToken(now)
	var exp time.Time
	if *days > 0 {
		exp = now.AddDate(0, 0, *days)
	}
	if _, err := e.commands.IssueToken(ctx, domain.System(), events.NewID(now), fs.Arg(0),
		domain.IssueToken{TokenID: id, Name: *name, Hash: hash, ExpiresAt: exp}); err != nil {
		return err
	}
	fmt.Printf("token for %s (shown once; send as Authorization: Bearer …):\n%s\n", fs.Arg(0), full)
	return nil
}
