package rankfile

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
)

// maxProblems bounds the problems one check collects: past it, a file is
// wrong in some systematic way that the first hundred already show.
const maxProblems = 100

// maxSamples bounds the new entries and score changes a Summary lists by
// name; its counts cover them all.
const maxSamples = 50

// Summary is what an import finds to do, before (DryRun) or while
// (ImportWith) doing it. A store with the same events gives the same
// Summary for the same file.
type Summary struct {
	Ranking    string
	NewRanking bool // the file defines a ranking the store does not hold
	// Methodology reports whether a methodology proposal opens (a new
	// ranking, or a methodology that differs from the ranking's).
	Methodology      bool
	Entries          int           // entries in the file
	NewEntries       int           // entries the import creates
	UnchangedEntries int           // published entries the file repeats without a change
	ChangedScores    int           // scores that differ from the published value (or have none)
	UnchangedScores  int           // scores that repeat the published value
	Open             int           // proposals to open (the methodology's included)
	AlreadyOpen      int           // proposals an earlier import of the same content opened
	NewEntrySlugs    []string      // the first maxSamples
	Changes          []ScoreChange // the first maxSamples
	Problems         Problems      // empty: the import may run
}

// ScoreChange is one score the import proposes to change.
type ScoreChange struct {
	Entry     string
	Criterion string
	From      *int // nil: nothing published
	To        int
}

// DryRun checks f as ImportWith would and reports what it would do,
// storing nothing. The file's mistakes are in the Summary's Problems; the
// error is for anything else (the store could not be read).
func DryRun(ctx context.Context, h *handler.Handler, f *File, actor domain.Actor, o Options) (Summary, error) {
	if !actor.Has(domain.RoleEditor) {
		return Summary{}, fmt.Errorf("import as %q: %w", actor.Name, domain.ErrRoleRequired)
	}
	if err := domain.CheckSlug("slug", f.Slug); err != nil {
		return Summary{Ranking: f.Slug, Problems: Problems{}.add(err)}, nil
	}
	pl, err := build(ctx, h, f, actor, o)
	var probs Problems
	if errors.As(err, &probs) {
		err = nil
	}
	if err != nil {
		return Summary{}, err
	}
	s := pl.summary()
	s.Ranking, s.Entries, s.Problems = f.Slug, len(f.Entries), probs
	return s, nil
}

// summary counts what the plan holds.
func (pl *plan) summary() Summary {
	s := Summary{NewRanking: pl.newRanking, Methodology: pl.definition != nil, UnchangedEntries: len(pl.unchanged)}
	if d := pl.definition; d != nil {
		if d.exists {
			s.AlreadyOpen++
		} else {
			s.Open++
		}
	}
	for _, e := range pl.unchanged {
		s.UnchangedScores += e.same
	}
	for _, e := range pl.entries {
		if e.exists {
			s.AlreadyOpen++
		} else {
			s.Open++
		}
		if e.open.NewEntry != nil {
			s.NewEntries++
			if len(s.NewEntrySlugs) < maxSamples {
				s.NewEntrySlugs = append(s.NewEntrySlugs, e.open.Entry)
			}
		}
		s.UnchangedScores += e.same
		for j, sc := range e.entry.Scores {
			from := e.scoreFrom[j]
			if from != nil && *from == sc.Value {
				s.UnchangedScores++
				continue
			}
			s.ChangedScores++
			if len(s.Changes) < maxSamples {
				s.Changes = append(s.Changes, ScoreChange{Entry: e.open.Entry, Criterion: sc.Criterion, From: from, To: sc.Value})
			}
		}
	}
	return s
}

// Problem is one mistake in a file: where (Path, as in "entries[4].scores[1]";
// Line and Column once a Locator placed it) and what (Err, whose field,
// when it names one, is the last part of the path: "criterion").
type Problem struct {
	Path   string
	Line   int    // 1-based; 0: not placed
	Column int    // 1-based; 0: the whole line
	Header string // the CSV column's header, when the file is a CSV
	Err    error
}

func (p Problem) Error() string {
	var b strings.Builder
	if p.Line > 0 {
		fmt.Fprintf(&b, "line %d", p.Line)
		if p.Header != "" {
			fmt.Fprintf(&b, ", column %s", p.Header)
		} else if p.Column > 0 {
			fmt.Fprintf(&b, ", column %d", p.Column)
		}
		b.WriteString(": ")
	}
	if p.Path != "" {
		b.WriteString(p.Path + ".")
	}
	b.WriteString(p.Err.Error())
	return b.String()
}

func (p Problem) Unwrap() error { return p.Err }

// Problems are a file's mistakes, in file order.
type Problems []Problem

func (ps Problems) Error() string {
	if len(ps) == 0 {
		return "no problems"
	}
	if len(ps) == 1 {
		return ps[0].Error()
	}
	return fmt.Sprintf("%s (and %d more problems)", ps[0].Error(), len(ps)-1)
}

// Unwrap gives errors.Is and errors.As the problems' errors.
func (ps Problems) Unwrap() []error {
	out := make([]error, len(ps))
	for i, p := range ps {
		out[i] = p.Err
	}
	return out
}

// add appends err as a Problem, splitting a field error's path from its
// field: "entries[4].scores[1].criterion" becomes path "entries[4].scores[1]"
// and field "criterion".
func (ps Problems) add(err error) Problems {
	var fe *domain.FieldError
	if !errors.As(err, &fe) {
		path, inner := splitPath(err)
		return append(ps, Problem{Path: path, Err: inner})
	}
	c := *fe
	path, field := "", fe.Field
	if i := strings.LastIndexByte(fe.Field, '.'); i >= 0 && !isLang(fe.Field[i+1:]) {
		path, field = fe.Field[:i], fe.Field[i+1:]
	} else if i >= 0 { // "entries[1].name.zh": the language stays with its field
		if j := strings.LastIndexByte(fe.Field[:i], '.'); j >= 0 {
			path, field = fe.Field[:j], fe.Field[j+1:]
		}
	}
	c.Field = field
	return append(ps, Problem{Path: path, Err: &c})
}

func isLang(s string) bool { return s == "zh" || s == "en" }

// pathError is what at wraps a field-less error in.
type pathError struct {
	path string
	err  error
}

func (e *pathError) Error() string { return e.path + ": " + e.err.Error() }
func (e *pathError) Unwrap() error { return e.err }

// splitPath takes at's path off an error without a field.
func splitPath(err error) (string, error) {
	var pe *pathError
	if errors.As(err, &pe) {
		return pe.path, pe.err
	}
	return "", err
}
