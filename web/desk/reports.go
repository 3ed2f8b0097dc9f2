package desk

import (
	"net/http"
	"net/url"
	"strconv"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/api"
	"github.com/crossrank/crossrank/web/command"
	"github.com/crossrank/crossrank/web/paths"
	"github.com/crossrank/crossrank/web/ui"
)

// The editors' triage queue of readers' reports: filtered by ranking and
// status, paged in SQL, each open report with its three actions (the same
// command.Actions as POST /api/v1/reports/{id}/…).

// reportsPath is the queue's address.
const reportsPath = paths.Reports

// reportRoutes mounts the queue and its forms for editors.
func (d *Desk) reportRoutes(handle func(string, http.Handler), editor func(http.HandlerFunc) http.Handler, role func(string, http.Handler) http.Handler) {
	handle("GET "+reportsPath, editor(d.serveReports))
	handle("POST "+reportsPath+"/{id}/accept", role(domain.RoleEditor, command.Form(d.write, command.AcceptReport, d.reportAccepted, nil)))
	handle("POST "+reportsPath+"/{id}/decline", role(domain.RoleEditor, command.Form(d.write, command.DeclineReport, reportTriaged, nil)))
	handle("POST "+reportsPath+"/{id}/duplicate", role(domain.RoleEditor, command.Form(d.write, command.MarkDuplicate, reportTriaged, nil)))
}

// reportAccepted goes to the draft proposal the report opened, for the
// editor to fill in (the queue, should the report not read back).
func (d *Desk) reportAccepted(r *http.Request, in *command.ReportTriageInput, _ handler.Result) string {
	rep, err := d.cmd.Report(r.Context(), in.Report)
	if err != nil || rep.Proposal == "" {
		return reportsPath
	}
	return "/desk/proposals/" + url.PathEscape(rep.Proposal)
}

// reportTriaged goes back to the queue.
func reportTriaged(r *http.Request, _ *command.ReportTriageInput, _ handler.Result) string {
	if back := r.Header.Get("Referer"); back != "" {
		if u, err := url.Parse(back); err == nil && u.Path == reportsPath {
			return reportsPath + "?" + u.RawQuery
		}
	}
	return reportsPath
}

// reportsView is the model of the triage queue.
type reportsView struct {
	ui.Page
	Ranking, Status    string
	Rankings           []string
	Statuses           []string
	Rows               []reportRow
	Total, Pg, Pages   int
	PrevHref, NextHref string
}

// serveReports shows a page of the queue.
func (d *Desk) serveReports(w http.ResponseWriter, r *http.Request) {
	f, page, err := api.ReportQuery(r)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	rows, total, err := d.read.ReportPage(r.Context(), f, api.ReportPerPage, (page-1)*api.ReportPerPage)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	v := reportsView{Page: ui.PageOf(r, "reports.desk_title", "reports"), Ranking: f.Ranking, Status: f.Status,
		Statuses: domain.ReportStatuses, Total: total, Pg: page,
		Pages: max(1, (total+api.ReportPerPage-1)/api.ReportPerPage)}
	if page > v.Pages {
		ui.Fail(w, r, projections.ErrNotFound)
		return
	}
	if v.Rows, err = d.reportRowsOf(r.Context(), v.Page, rows); err != nil {
		ui.Fail(w, r, err)
		return
	}
	rankings, err := d.read.Rankings(r.Context())
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	for _, rk := range rankings {
		v.Rankings = append(v.Rankings, rk.Slug)
	}
	at := func(n int) string {
		q := url.Values{}
		if f.Ranking != "" {
			q.Set("ranking", f.Ranking)
		}
		if f.Status != "" {
			q.Set("status", f.Status)
		}
		q.Set("page", strconv.Itoa(n))
		return reportsPath + "?" + q.Encode()
	}
	if page > 1 {
		v.PrevHref = at(page - 1)
	}
	if page < v.Pages {
		v.NextHref = at(page + 1)
	}
	ui.Render(w, r, http.StatusOK, reportsPage(v))
}
