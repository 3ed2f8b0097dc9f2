package desk

import (
	"strconv"

	"github.com/crossrank/crossrank/domain/rankfile"
	"github.com/crossrank/crossrank/web/i18n"
	"github.com/crossrank/crossrank/web/imports"
	"github.com/crossrank/crossrank/web/ui"
)

// importFormView is the upload form.
type importFormView struct {
	ui.Page
	Rankings []string // the rankings a CSV may be for
	Ranking  string   // the one chosen
	Problem  string   // why the last upload was refused
}

// importJobView is one import's page.
type importJobView struct {
	ui.Page
	ID       string
	State    string // imports.State
	Running  bool   // the page reloads itself
	Progress string // "Checked 3,450 of 10,000 entries"
	Percent  int
	Failure  string
	Counts   []importCount
	Changes  []importChange
	More     string // "… and 99,950 more"
	NewSlugs []string
	Problems []importProblem
	Confirm  bool // the confirm button shows
	Opened   string
	Captures *importCapturesView // once done: the capture of the ranking's sources; nil when it cites none
}

type importCount struct {
	Key   string // data-testid suffix: new_entries, changed_scores…
	Label string
	N     int
}

type importChange struct {
	Entry, Criterion, From, To string
}

type importProblem struct {
	Where   string // "Line 12, column score" / "第 12 行，score 列"
	Path    string // entries[4].scores[1]
	Message string
}

// importJobViewOf puts a job into the page's words.
func importJobViewOf(p ui.Page, j imports.Job) importJobView {
	v := importJobView{Page: p, ID: j.ID, State: string(j.State), Running: j.State == imports.Checking || j.State == imports.Opening}
	if v.Running {
		key := "desk.import.progress.check"
		if j.Stage == rankfile.StageOpen {
			key = "desk.import.progress.open"
		}
		v.Progress = plural(p.Lang, key, j.Total, j.Done, j.Total)
		if j.Total > 0 {
			v.Percent = j.Done * 100 / j.Total
		}
	}
	if j.Err != nil {
		v.Failure = i18n.Error(p.Lang, j.Err)
	}
	s := j.Summary
	if j.State != imports.Checking {
		v.Counts = []importCount{
			{"entries", p.T("desk.import.count.entries"), s.Entries},
			{"new_entries", p.T("desk.import.count.new_entries"), s.NewEntries},
			{"unchanged_entries", p.T("desk.import.count.unchanged_entries"), s.UnchangedEntries},
			{"changed_scores", p.T("desk.import.count.changed_scores"), s.ChangedScores},
			{"unchanged_scores", p.T("desk.import.count.unchanged_scores"), s.UnchangedScores},
			{"open", p.T("desk.import.count.open"), s.Open},
			{"already_open", p.T("desk.import.count.already_open"), s.AlreadyOpen},
			{"problems", p.T("desk.import.count.problems"), len(s.Problems)},
		}
	}
	for _, c := range s.Changes {
		from := "–"
		if c.From != nil {
			from = strconv.Itoa(*c.From)
		}
		v.Changes = append(v.Changes, importChange{Entry: c.Entry, Criterion: c.Criterion, From: from, To: strconv.Itoa(c.To)})
	}
	if n := s.ChangedScores - len(s.Changes); n > 0 {
		v.More = p.Plural("desk.import.more_changes", n)
	}
	v.NewSlugs = s.NewEntrySlugs
	for _, pr := range s.Problems {
		v.Problems = append(v.Problems, importProblemOf(p, pr))
	}
	v.Confirm = j.Confirmable()
	if j.State == imports.Done {
		v.Opened = p.Plural("desk.import.opened", j.Opened)
	}
	return v
}

// importProblemOf words one problem: where it is, then what is wrong.
func importProblemOf(p ui.Page, pr rankfile.Problem) importProblem {
	out := importProblem{Path: pr.Path, Message: i18n.ImportProblem(p.Lang, pr.Err)}
	switch {
	case pr.Line > 0 && pr.Header != "":
		out.Where = p.T("desk.import.at_cell", pr.Line, pr.Header)
	case pr.Line > 0 && pr.Column > 0:
		out.Where = p.T("desk.import.at_column", pr.Line, pr.Column)
	case pr.Line > 0:
		out.Where = p.T("desk.import.at_line", pr.Line)
	}
	return out
}
