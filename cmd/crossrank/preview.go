package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/auth"
	"github.com/crossrank/crossrank/web/command"
)

const previewUsage = "usage: crossrank preview create --ranking SLUG --proposal ID [--proposal ID…] --expires RFC3339 [--note TEXT] [--vendor NAME…] | revoke ID"

// names collects a flag given more than once (--proposal a --proposal b).
type names []string

func (n *names) String() string { return strings.Join(*n, ",") }
func (n *names) Set(v string) error {
	*n = append(*n, strings.TrimSpace(v))
	return nil
}

// parsePreview parses `crossrank preview create|revoke …`: the operator
// creates an embargoed preview of chosen cross-validated proposals — the
// same command the desk's publish page and the API run, refused for the
// same reasons — and the link is printed this once (only its token's hash
// is stored); or revokes one by id.
func parsePreview(args []string, w io.Writer) (*storeCommand, error) {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		if len(args) > 0 && isHelp(args[0]) {
			fmt.Fprintln(w, previewUsage)
			return nil, errHelp
		}
		return nil, usageError(previewUsage)
	}
	sub, args := args[0], args[1:]
	fs, sc := newFlags("preview "+sub, w)
	ranking := fs.String("ranking", "", "the ranking the proposals are of (create)")
	var proposals, vendors names
	fs.Var(&proposals, "proposal", "a cross-validated proposal the preview shows; repeat for more (create)")
	expires := fs.String("expires", "", "when the link stops opening, RFC 3339 (create)")
	note := fs.String("note", "", "a note the preview's page shows (create)")
	fs.Var(&vendors, "vendor", "a user the preview is sent to; repeat for more (create)")
	publicURL := fs.String("public-url", os.Getenv("CROSSRANK_PUBLIC_URL"), "the site's public address, the start of the printed link (CROSSRANK_PUBLIC_URL)")
	if err := fs.Parse(reorder(args)); err != nil {
		return nil, err
	}
	pos := fs.Args()
	switch {
	case sub == "create" && len(pos) == 0 && *ranking != "" && len(proposals) > 0 && *expires != "":
		c := domain.CreatePreview{Ranking: *ranking, Proposals: proposals, ExpiresAt: *expires, Note: *note}
		for _, v := range vendors {
			c.Vendors = append(c.Vendors, strings.ToLower(v))
		}
		sc.run = func(ctx context.Context, e *env, out io.Writer) error {
			token, _ := auth.NewLinkToken()
			c.CommandID, c.TokenHash = events.NewID(e.commands.Now()), command.PreviewTokenHash(token)
			if _, err := e.commands.CreatePreview(ctx, domain.System(), c); err != nil {
				return err
			}
			fmt.Fprintf(out, "created preview %s of %d proposal(s), until %s\n", c.CommandID, len(c.Proposals), c.ExpiresAt)
			fmt.Fprintf(out, "link (shown once): %s%s\n", strings.TrimSuffix(*publicURL, "/"), command.PreviewPath(token))
			if *publicURL == "" {
				fmt.Fprintln(out, "(prefix it with the site's address, or pass --public-url)")
			}
			return nil
		}
	case sub == "revoke" && len(pos) == 1 && events.ValidID(pos[0]):
		sc.run = func(ctx context.Context, e *env, out io.Writer) error {
			if _, err := e.commands.RevokePreview(ctx, domain.System(), events.NewID(e.commands.Now()), pos[0]); err != nil {
				return err
			}
			fmt.Fprintf(out, "revoked preview %s\n", pos[0])
			return nil
		}
	default:
		return nil, usageError(previewUsage)
	}
	return sc, nil
}
