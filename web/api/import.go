package api

import (
	"errors"
	"io"
	"mime"
	"net/http"

	"github.com/crossrank/crossrank/domain/rankfile"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/command"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/i18n"
	"github.com/crossrank/crossrank/web/imports"
	"github.com/crossrank/crossrank/web/paths"
	"github.com/crossrank/crossrank/web/ui"
)

// ImportRoutes lists the API's door to the desk's import page: the body of
// POST /api/v1/imports is the ranking file (application/json) or CSV
// (text/csv, for ?ranking=), checked in the background; ?dry_run=false
// opens its proposals when the check finds no problem, else the client
// reads the report (GET) and confirms. Each answers the import's state.
func ImportRoutes(mux *http.ServeMux, d *command.Deps, jobs *imports.Jobs, read *projections.Store) {
	user := d.RequireUser
	a := importAPI{jobs: jobs, read: read}
	mux.Handle("POST "+paths.APIImports, user(a.create()))
	mux.Handle("GET "+paths.APIImports+"/{id}", user(a.get()))
	mux.Handle("POST "+paths.APIImports+"/{id}/confirm", user(a.confirm()))
}

// importAPI is what the import's routes read: the jobs, and the read
// models for the capture progress of a done import's ranking.
type importAPI struct {
	jobs *imports.Jobs
	read *projections.Store
}

// Import is an import's state, as the API answers it.
type Import struct {
	ID      string        `json:"id"`
	State   string        `json:"state"`
	Stage   string        `json:"stage"`
	Done    int           `json:"done"`
	Total   int           `json:"total"`
	Summary ImportSummary `json:"summary"`
	Opened  int           `json:"opened"`
	Error   *Words        `json:"error,omitempty"`
	// Captures is how far the capture of the ranking's sources has come,
	// once the import is done; absent before.
	Captures *ImportCaptures `json:"captures,omitempty"`
}

// ImportCaptures counts the sources (evidence items citing a URL) of the
// imported ranking's proposals: captured, failed (given up after the
// retries) and pending (waiting for a first attempt or a retry).
type ImportCaptures struct {
	Sources  int `json:"sources"`
	Captured int `json:"captured"`
	Failed   int `json:"failed"`
	Pending  int `json:"pending"`
}

// ImportSummary is what the import finds to do (rankfile.Summary).
type ImportSummary struct {
	Ranking          string          `json:"ranking"`
	NewRanking       bool            `json:"new_ranking"`
	Methodology      bool            `json:"methodology"`
	Entries          int             `json:"entries"`
	NewEntries       int             `json:"new_entries"`
	UnchangedEntries int             `json:"unchanged_entries"`
	ChangedScores    int             `json:"changed_scores"`
	UnchangedScores  int             `json:"unchanged_scores"`
	Open             int             `json:"open"`
	AlreadyOpen      int             `json:"already_open"`
	NewEntrySlugs    []string        `json:"new_entry_slugs"`
	Changes          []ImportChange  `json:"changes"`
	Problems         []ImportProblem `json:"problems"`
}

// ImportChange is one score change.
type ImportChange struct {
	Entry     string `json:"entry"`
	Criterion string `json:"criterion"`
	From      *int   `json:"from"`
	To        int    `json:"to"`
}

// ImportProblem is one mistake of the file, where it is and in words.
type ImportProblem struct {
	Path    string `json:"path"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Header  string `json:"header,omitempty"`
	Code    string `json:"code"`
	Message Words  `json:"message"`
}

// Words is a message in both languages.
type Words struct {
	En string `json:"en"`
	Zh string `json:"zh"`
}

// create starts an import of the request's body.
func (a importAPI) create() http.Handler {
	jobs := a.jobs
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u, err := uploadOf(r)
		if err != nil {
			ui.Fail(w, r, err)
			return
		}
		start := jobs.Check
		if dry := r.URL.Query().Get("dry_run"); dry == "false" || dry == "0" {
			start = jobs.Import
		}
		id, err := start(httpx.Actor(r.Context()), u)
		if err != nil {
			ui.Fail(w, r, err)
			return
		}
		a.answer(w, r, id, http.StatusAccepted)
	})
}

// uploadOf reads the body as the file: a ranking file or a CSV.
func uploadOf(r *http.Request) (rankfile.Upload, error) {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "application/json" && mt != "text/csv" {
		return rankfile.Upload{}, errNotImport
	}
	data, err := io.ReadAll(r.Body)
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		return rankfile.Upload{}, tooBig
	case err != nil:
		return rankfile.Upload{}, httpx.Malformed("body: %v", err)
	case len(data) > rankfile.MaxSize:
		return rankfile.Upload{}, &http.MaxBytesError{Limit: rankfile.MaxSize}
	}
	u := rankfile.Upload{Data: data, Ranking: r.URL.Query().Get("ranking")}
	if (mt == "application/json") != u.IsJSON() {
		return rankfile.Upload{}, httpx.Malformed("the body is not %s", mt)
	}
	return u, nil
}

// errNotImport: the body is neither a ranking file nor a CSV (415).
var errNotImport = httpx.ErrMediaType

func (a importAPI) get() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a.answer(w, r, r.PathValue("id"), http.StatusOK)
	})
}

func (a importAPI) confirm() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.PathValue("id")
		if _, err := a.jobs.Confirm(id, httpx.Actor(r.Context())); err != nil {
			ui.Fail(w, r, err)
			return
		}
		a.answer(w, r, id, http.StatusAccepted)
	})
}

// answer answers import id of the request's user.
func (a importAPI) answer(w http.ResponseWriter, r *http.Request, id string, status int) {
	j, err := a.jobs.Get(id, httpx.Actor(r.Context()).Name)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	out := importOf(j)
	if j.State == imports.Done && j.Summary.Ranking != "" {
		c, err := a.read.CaptureProgress(r.Context(), j.Summary.Ranking)
		if err != nil {
			ui.Fail(w, r, err)
			return
		}
		out.Captures = &ImportCaptures{Sources: c.Sources, Captured: c.Captured, Failed: c.Failed, Pending: c.Pending()}
	}
	w.Header().Set("Location", paths.APIImports+"/"+id)
	httpx.WriteJSON(w, status, out)
}

func importOf(j imports.Job) Import {
	s := j.Summary
	out := Import{ID: j.ID, State: string(j.State), Stage: string(j.Stage), Done: j.Done, Total: j.Total, Opened: j.Opened,
		Summary: ImportSummary{Ranking: s.Ranking, NewRanking: s.NewRanking, Methodology: s.Methodology, Entries: s.Entries,
			NewEntries: s.NewEntries, UnchangedEntries: s.UnchangedEntries, ChangedScores: s.ChangedScores,
			UnchangedScores: s.UnchangedScores, Open: s.Open, AlreadyOpen: s.AlreadyOpen,
			NewEntrySlugs: append([]string{}, s.NewEntrySlugs...), Changes: []ImportChange{}, Problems: []ImportProblem{}}}
	for _, c := range s.Changes {
		out.Summary.Changes = append(out.Summary.Changes, ImportChange{Entry: c.Entry, Criterion: c.Criterion, From: c.From, To: c.To})
	}
	for _, p := range s.Problems {
		out.Summary.Problems = append(out.Summary.Problems, ImportProblem{Path: p.Path, Line: p.Line, Column: p.Column,
			Header: p.Header, Code: i18n.ProblemCode(p.Err),
			Message: Words{En: i18n.ImportProblem(i18n.En, p.Err), Zh: i18n.ImportProblem(i18n.Zh, p.Err)}})
	}
	if j.Err != nil {
		out.Error = &Words{En: i18n.Error(i18n.En, j.Err), Zh: i18n.Error(i18n.Zh, j.Err)}
	}
	return out
}
