package rankfile_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/domain/rankfile"
)

// TestDryRunAtScale checks a generated file of 10,000 entries × 10
// criteria × 3 evidence items: the summary counts every entry and score,
// reports progress to the end, and the stream does not move.
func TestDryRunAtScale(t *testing.T) {
	if testing.Short() {
		t.Skip("full run only: dry-runs a 10,000-entry ranking file; go test -short skips it")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	s := newStore(t, ctx)
	data, err := json.Marshal(rankfile.Generate("big", rankfile.Size{Entries: 10000, Criteria: 10, Evidence: 3, Seed: 7}))
	if err != nil {
		t.Fatal(err)
	}
	before := s.last(t, ctx)
	var last [2]int
	f, sum, err := rankfile.Check(ctx, s.h, rankfile.Upload{Data: data}, importer, rankfile.Options{
		Progress: func(_ rankfile.Stage, done, total int) { last = [2]int{done, total} }})
	if err != nil {
		t.Fatal(err)
	}
	if f == nil || len(sum.Problems) > 0 {
		t.Fatalf("problems: %v", sum.Problems)
	}
	got := [...]int{sum.Entries, sum.NewEntries, sum.ChangedScores, sum.UnchangedScores, sum.Open, sum.AlreadyOpen}
	if want := [...]int{10000, 10000, 100000, 0, 10001, 0}; got != want {
		t.Errorf("entries, new, changed, unchanged, to open, already open = %v, want %v", got, want)
	}
	if !sum.NewRanking || len(sum.Changes) != 50 || len(sum.NewEntrySlugs) != 50 {
		t.Errorf("new ranking %v, %d changes and %d new entries listed", sum.NewRanking, len(sum.Changes), len(sum.NewEntrySlugs))
	}
	if last != [2]int{10000, 10000} {
		t.Errorf("last progress %v, want 10000 of 10000", last)
	}
	if n := s.last(t, ctx); n != before {
		t.Errorf("a dry run stored events: stream %d → %d", before, n)
	}
}

// TestDryRunNamesEveryProblem plants three mistakes in a file: the dry
// run names each by its path, line and column, and stores nothing.
func TestDryRunNamesEveryProblem(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s := newStore(t, ctx)
	f := demo.File()
	f.Entries[1].Scores[0].Value = 11
	f.Entries[4].Scores[1].Criterion = "speed"
	f.Entries[6].Category = "nowhere"
	data := encoded(t, f)
	before := s.last(t, ctx)
	_, sum, err := rankfile.Check(ctx, s.h, rankfile.Upload{Data: data}, importer, rankfile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ path, field, text string }{
		{"entries[1].scores[0]", "value", `"value": 11`},
		{"entries[4].scores[1]", "criterion", `"criterion": "speed"`},
		{"entries[6]", "category", `"category": "nowhere"`},
	}
	if len(sum.Problems) != len(want) {
		t.Fatalf("%d problems, want %d: %v", len(sum.Problems), len(want), sum.Problems)
	}
	lines := strings.Split(string(data), "\n")
	for i, w := range want {
		p := sum.Problems[i]
		var fe *domain.FieldError
		if p.Path != w.path || !errors.As(p.Err, &fe) || fe.Field != w.field {
			t.Errorf("problem %d: %s at %s, want field %s at %s", i, p.Err, p.Path, w.field, w.path)
			continue
		}
		if p.Line < 1 || p.Line > len(lines) || !strings.HasPrefix(string([]rune(lines[p.Line-1])[p.Column-1:]), strings.SplitN(w.text, ": ", 2)[1]) {
			t.Errorf("problem %d placed at line %d column %d, not at %s", i, p.Line, p.Column, w.text)
		}
	}
	if n := s.last(t, ctx); n != before {
		t.Errorf("stored events: stream %d → %d", before, n)
	}
}

// TestImportTwiceOpensOnce imports a generated file, then the same file
// again: the first opens a proposal per entry (and the definition), the
// second dry run finds them all open and the second import appends nothing.
func TestImportTwiceOpensOnce(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s := newStore(t, ctx)
	f := rankfile.Generate("twice", rankfile.Size{Entries: 40, Criteria: 3, Evidence: 2, Seed: 1})
	rep, err := rankfile.Import(ctx, s.h, f, importer)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Proposals) != 40 || rep.Definition == "" || rep.Summary.Open != 41 {
		t.Fatalf("first import: %d proposals, definition %q, %d to open", len(rep.Proposals), rep.Definition, rep.Summary.Open)
	}
	sum, err := rankfile.DryRun(ctx, s.h, f, importer, rankfile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Open != 0 || sum.AlreadyOpen != 41 {
		t.Errorf("second dry run: %d to open, %d already open; want 0 and 41", sum.Open, sum.AlreadyOpen)
	}
	before := s.last(t, ctx)
	if rep, err = rankfile.Import(ctx, s.h, f, importer); err != nil || rep.Appended {
		t.Errorf("second import: appended %v, %v", rep.Appended, err)
	}
	if n := s.last(t, ctx); n != before {
		t.Errorf("second import stored events: stream %d → %d", before, n)
	}
}
