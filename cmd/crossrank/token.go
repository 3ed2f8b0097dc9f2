package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/auth"
)

const tokenUsage = "usage: crossrank token create USER [--name LABEL] [--days N]"

// parseToken parses `crossrank token create USER`: an API token for a user,
// issued by the operator and printed once.
func parseToken(args []string, w io.Writer) (*storeCommand, error) {
	if len(args) == 0 || args[0] != "create" {
		if len(args) > 0 && isHelp(args[0]) {
			fmt.Fprintln(w, tokenUsage)
			return nil, errHelp
		}
		return nil, usageError(tokenUsage)
	}
	fs, sc := newFlags("token create", w)
	name := fs.String("name", "cli", "a label for the token")
	days := fs.Int("days", 90, "days until the token expires; 0: never")
	if err := fs.Parse(reorder(args[1:])); err != nil {
		return nil, err
	}
	if fs.NArg() != 1 || *days < 0 {
		return nil, usageError(tokenUsage)
	}
	user := fs.Arg(0)
	sc.run = func(ctx context.Context, e *env, out io.Writer) error {
		now := e.commands.Now()
		id, _, full, hash := auth.NewToken(now)
		var exp time.Time
		if *days > 0 {
			exp = now.AddDate(0, 0, *days)
		}
		if _, err := e.commands.IssueToken(ctx, domain.System(), domain.IssueToken{CommandID: events.NewID(now),
			User: user, TokenID: id, Name: *name, Hash: hash, ExpiresAt: exp}); err != nil {
			return err
		}
		fmt.Fprintf(out, "token for %s (shown once; send as Authorization: Bearer …):\n%s\n", user, full)
		return nil
	}
	return sc, nil
}
