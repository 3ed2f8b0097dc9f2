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
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/domain/rankfile"
	"github.com/crossrank/crossrank/events"
)

const rankingUsage = "usage: crossrank ranking export SLUG --out FILE | import FILE --as USER [--ranking SLUG] [--dry-run]"

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
	ranking := fs.String("ranking", "", "the ranking a CSV file's rows are for (import)")
	dryRun := fs.Bool("dry-run", false, "check the file and print what importing it would do; store nothing (import)")
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
		sc.forward = []string{"import", path, "--as", *as, "--ranking", *ranking}
		if *dryRun {
			sc.forward = append(sc.forward, "--dry-run")
		}
		in := importInput{path: path, user: *as, ranking: *ranking, dryRun: *dryRun}
		sc.run = func(ctx context.Context, e *env, w io.Writer) error {
			return importRanking(ctx, e.commands, in, w)
		}
	default:
		return nil, usageError(rankingUsage)
	}
	return sc, nil
}

// exportRanking writes ranking slug's published edition to path, whole or
// not at all (a temporary file renamed into place).
func exportRanking(ctx context.Context, h *handler.Handler, slug, path string, w io.Writer) error {
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

// importInput is what `ranking import` was asked to do.
type importInput struct {
	path    string // absolute
	user    string
	ranking string // a CSV's ranking
	dryRun  bool
}

// importRanking checks the file at in.path as in.user, who must exist and
// hold the editor role, prints what importing it does and, unless it is a
// dry run or the file has mistakes, does it; the events say the user
// acted from the command line.
func importRanking(ctx context.Context, h *handler.Handler, in importInput, w io.Writer) error {
	u, err := h.User(ctx, in.user)
	if errors.Is(err, domain.ErrUserMissing) {
		return fmt.Errorf("--as %s: no such user", in.user)
	}
	if err != nil {
		return err
	}
	a := u.Actor()
	a.Via = events.Via{Method: events.ViaCLI}
	if !a.Has(domain.RoleEditor) {
		return fmt.Errorf("--as %s: the user does not hold the editor role; nothing was imported", in.user)
	}
	data, err := os.ReadFile(in.path)
	if err != nil {
		return err
	}
	f, sum, err := rankfile.Check(ctx, h, rankfile.Upload{Data: data, Ranking: in.ranking}, a, rankfile.Options{})
	if err != nil {
		return err
	}
	writeSummary(w, sum)
	if len(sum.Problems) > 0 {
		return fmt.Errorf("%s: %d problems; nothing was imported", in.path, len(sum.Problems))
	}
	if in.dryRun {
		fmt.Fprintln(w, "dry run: nothing was stored")
		return nil
	}
	rep, err := rankfile.Import(ctx, h, f, a)
	switch {
	case err != nil && rep.Appended:
		return fmt.Errorf("%s: %w; partly imported: run the same import again to finish it", in.path, err)
	case err != nil:
		return fmt.Errorf("%s: %w; nothing was imported", in.path, err)
	}
	if !rep.Appended {
		fmt.Fprintf(w, "%s: already imported; nothing new was opened\n", in.path)
		return nil
	}
	if rep.Definition != "" {
		fmt.Fprintf(w, "methodology proposal %s\n", rep.Definition)
	}
	fmt.Fprintf(w, "imported %s as %s: %d entry proposals submitted for review; nothing is published until reviewers approve and a publisher publishes\n",
		f.Slug, in.user, len(rep.Proposals))
	return nil
}

// writeSummary prints what an import finds to do: the same counts and
// problems the desk's import page and the API's dry run show.
func writeSummary(w io.Writer, s rankfile.Summary) {
	fmt.Fprintf(w, "ranking %s", s.Ranking)
	switch {
	case s.NewRanking:
		fmt.Fprint(w, " (new: a methodology proposal defines it)")
	case s.Methodology:
		fmt.Fprint(w, " (a methodology change proposal opens)")
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "entries %d: new %d, unchanged %d\n", s.Entries, s.NewEntries, s.UnchangedEntries)
	fmt.Fprintf(w, "scores: changed %d, unchanged %d\n", s.ChangedScores, s.UnchangedScores)
	fmt.Fprintf(w, "proposals: to open %d, already open %d\n", s.Open, s.AlreadyOpen)
	for _, c := range s.Changes {
		from := "-"
		if c.From != nil {
			from = fmt.Sprint(*c.From)
		}
		fmt.Fprintf(w, "  %s %s: %s -> %d\n", c.Entry, c.Criterion, from, c.To)
	}
	if n := s.ChangedScores - len(s.Changes); n > 0 {
		fmt.Fprintf(w, "  … and %d more score changes\n", n)
	}
	for _, p := range s.Problems {
		fmt.Fprintf(w, "error: %s\n", p.Error())
	}
}
