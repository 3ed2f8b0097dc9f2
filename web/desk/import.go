package desk

import (
	"errors"
	"io"
	"net/http"

	"github.com/crossrank/crossrank/domain/rankfile"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/imports"
	"github.com/crossrank/crossrank/web/paths"
	"github.com/crossrank/crossrank/web/ui"
)

// The import pages: an editor uploads a ranking file or CSV, the server
// checks it in the background (imports.Jobs) and shows what it would do;
// the proposals open only when the editor confirms. While a job runs its
// page reloads itself every second (a meta refresh: no script needed),
// showing how far it got; leaving the page stops nothing.

// importJobPath is the page of import id.
func importJobPath(id string) string { return paths.Import + "/" + id }

// serveImport shows the upload form.
func (d *Desk) serveImport(w http.ResponseWriter, r *http.Request) {
	d.renderImportForm(w, r, http.StatusOK, "")
}

func (d *Desk) renderImportForm(w http.ResponseWriter, r *http.Request, status int, problem string) {
	v := importFormView{Page: ui.PageOf(r, "desk.import.title", "dashboard"), Problem: problem, Ranking: r.FormValue("ranking")}
	if rs, err := d.read.Rankings(r.Context()); err == nil {
		for _, rk := range rs {
			v.Rankings = append(v.Rankings, rk.Slug)
		}
	}
	ui.Render(w, r, status, importFormPage(v))
}

// importUpload takes the multipart upload (a "file" and, for a CSV, its
// "ranking"), starts its check and answers 303 to the job's page. A body
// over httpx.MaxUpload, or a file over rankfile.MaxSize, is 413.
func (d *Desk) importUpload(w http.ResponseWriter, r *http.Request) {
	u, err := readUpload(r)
	if err != nil {
		if httpx.Status(err) == http.StatusUnprocessableEntity {
			d.renderImportForm(w, r, http.StatusUnprocessableEntity, httpx.Message(httpx.Lang(r.Context()), err))
			return
		}
		ui.Fail(w, r, err)
		return
	}
	id, err := d.imports.Check(httpx.Actor(r.Context()), u)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	http.Redirect(w, r, importJobPath(id), http.StatusSeeOther)
}

// errNoFile: the form was posted without a file.
var errNoFile = &httpx.BadField{Field: "file", Code: "field.required"}

// readUpload reads the form's file into memory (it is checked whole).
func readUpload(r *http.Request) (rankfile.Upload, error) {
	if err := r.ParseMultipartForm(httpx.MaxUpload); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return rankfile.Upload{}, tooBig
		}
		return rankfile.Upload{}, httpx.Malformed("upload: %v", err)
	}
	defer r.MultipartForm.RemoveAll()
	f, _, err := r.FormFile("file")
	if errors.Is(err, http.ErrMissingFile) {
		return rankfile.Upload{}, errNoFile
	}
	if err != nil {
		return rankfile.Upload{}, httpx.Malformed("upload: %v", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, rankfile.MaxSize+1))
	if err != nil {
		return rankfile.Upload{}, err
	}
	if len(data) > rankfile.MaxSize {
		return rankfile.Upload{}, &http.MaxBytesError{Limit: rankfile.MaxSize}
	}
	if len(data) == 0 {
		return rankfile.Upload{}, errNoFile
	}
	return rankfile.Upload{Data: data, Ranking: r.FormValue("ranking")}, nil
}

// serveImportJob shows an import: its progress while it runs, what it
// would do once checked, what it did once confirmed.
func (d *Desk) serveImportJob(w http.ResponseWriter, r *http.Request) {
	p := ui.PageOf(r, "desk.import.title", "dashboard")
	j, err := d.imports.Get(r.PathValue("id"), p.User.Username)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	v := importJobViewOf(p, j)
	if j.State == imports.Done && j.Summary.Ranking != "" {
		c, err := d.read.CaptureProgress(r.Context(), j.Summary.Ranking)
		if err != nil {
			ui.Fail(w, r, err)
			return
		}
		var retrying int
		if d.retries != nil && c.Pending() > 0 {
			// Not counted is better than no page: the line is left out.
			if retrying, err = d.retries.Retrying(r.Context()); err != nil {
				d.log.Warn("desk: counting the capture retries failed", "err", err)
			}
		}
		v.Captures = importCapturesOf(p, c, retrying)
	}
	ui.Render(w, r, http.StatusOK, importJobPage(v))
}

// importConfirm opens the proposals of a checked import; confirming again
// opens nothing more.
func (d *Desk) importConfirm(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if _, err := d.imports.Confirm(id, httpx.Actor(r.Context())); err != nil {
		ui.Fail(w, r, err)
		return
	}
	http.Redirect(w, r, importJobPath(id), http.StatusSeeOther)
}
