package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/rankfile"
	"github.com/crossrank/crossrank/events"
)

const rankingUsage = "usage: crossrank ranking export SLUG --out FILE | import FILE --as USER"

// parseRanking parses `crossrank ranking export|import …`: the ranking
// file (docs/ranking-file.md). Export writes a ranking's published edition;
// import opens proposals for review as USER, publishing nothing. Beside a
// running server the server reads or writes the file (paths are made
// absolute first).
func parseRanking(args []string, w io.Writer) (*storeCommand, error) {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		if len(args) > 0 && isHelp(args[0]) {
			fmt.Fprintln(w, rankingUsage)
			return nil, errHelp
		}
		return nil, usageError(rankingUsage)
	}
	sub, args := args[0], args[1:]
	fs, sc := newFlags("ranking "+sub, w)
	out := fs.String("out", "", "file to write (export)")
	as := fs.String("as", "", "the user the proposals are opened as; must hold the editor role (import)")
	if err := fs.Parse(reorder(args)); err != nil {
		return nil, err
	}
	pos := fs.Args()
	switch {
	case sub == "export" && len(pos) == 1 && *out != "":
		path, err := filepath.Abs(*out)
		if err != nil {
			return nil, err
		}
		sc.forward = []string{"export", pos[0], "--out", path}
		sc.run = func(ctx context.Context, e *env, w io.Writer) error {
			return exportRanking(ctx, e.commands, pos[0], path, w)
		}
	case sub == "import" && len(pos) == 1 && *as != "":
		path, err := filepath.Abs(pos[0])
		if err != nil {
			return nil, err
		}
		sc.forward = []string{"import", path, "--as", *as}
		sc.run = func(ctx context.Context, e *env, w io.Writer) error {
			return importRanking(ctx, e.commands, path, *as, w)
		}
	default:
		return nil, usageError(rankingUsage)
	}
	return sc, nil
}

// exportRanking writes ranking slug's published edition to path, whole or
// not at all (a temporary file renamed into place).
func exportRanking(ctx context.Context, h *domain.Handler, slug, path string, w io.Writer) error {
	f, err := rankfile.Export(ctx, h, slug)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if err := rankfile.Encode(&b, f); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".ranking-*.json")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b.Bytes()); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	fmt.Fprintf(w, "exported %s edition %d (%d entries, snapshot %s) to %s\n", slug, f.Edition, len(f.Entries), f.SnapshotHash, path)
	return nil
}

// importRanking imports the file at path as user, who must exist and hold
// the editor role; the events record that they acted from the command line.
func importRanking(ctx context.Context, h *domain.Handler, path, user string, w io.Writer) error {
	u, err := h.User(ctx, user)
	if errors.Is(err, domain.ErrUserMissing) {
		return fmt.Errorf("--as %s: no such user", user)
	}
	if err != nil {
		return err
	}
	a := u.Actor()
	a.Via = events.Via{Method: events.ViaCLI}
	if !a.Has(domain.RoleEditor) {
		return fmt.Errorf("--as %s: the user does not hold the editor role; nothing was imported", user)
	}
	r, err := os.Open(path)
	if err != nil {
		return err
	}
	defer r.Close()
	f, err := rankfile.Decode(r)
	if err != nil {
		return err
	}
	rep, err := rankfile.Import(ctx, h, f, a)
	switch {
	case err != nil && rep.Appended:
		return fmt.Errorf("%s: %w; partly imported: run the same import again to finish it", path, err)
	case err != nil:
		return fmt.Errorf("%s: %w; nothing was imported", path, err)
	}
	if !rep.Appended {
		fmt.Fprintf(w, "%s: already imported; nothing new was opened\n", path)
		return nil
	}
	if rep.Definition != "" {
		fmt.Fprintf(w, "methodology proposal %s\n", rep.Definition)
	}
	fmt.Fprintf(w, "imported %s as %s: %d entry proposals submitted for review; nothing is published until reviewers approve and a publisher publishes\n",
		f.Slug, user, len(rep.Proposals))
	return nil
}
