package api

import (
	"context"
	"net/http"
	"slices"
	"strconv"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/command"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/ui"
)

// ReportReads is what the reports' reads need from the read models.
type ReportReads interface {
	ReportPage(ctx context.Context, f projections.ReportFilter, limit, offset int) ([]projections.Report, int, error)
	ReportRow(ctx context.Context, id string) (projections.Report, bool, error)
}

var _ ReportReads = (*projections.Store)(nil)

// ReportRoutes lists the routes of readers' reports: the intake anyone may
// post to (its form twin is on the entry page), and the editors' triage.
func ReportRoutes(mux *http.ServeMux, d *command.Deps, read ReportReads, guard func(http.Handler) http.Handler) {
	handle := mux.Handle
	handle("POST /api/v1/rankings/{slug}/reports", command.ReportJSON(d))
	handle("GET /api/v1/reports", guard(d.RequireUser(reportList(read))))
	handle("GET /api/v1/reports/{id}", guard(d.RequireUser(reportOne(read))))
	handle("POST /api/v1/reports/{id}/accept", command.JSON(d, command.AcceptReport))
	handle("POST /api/v1/reports/{id}/decline", command.JSON(d, command.DeclineReport))
	handle("POST /api/v1/reports/{id}/duplicate", command.JSON(d, command.MarkDuplicate))
}

// ReportPerPage is how many reports a page of the list holds.
const ReportPerPage = 100

// Report is one reader's report as editors see it; never the reporter's
// contact address, which no read model holds.
type Report struct {
	ID          string `json:"id"`
	Ranking     string `json:"ranking"`
	Entry       string `json:"entry"`
	Criterion   string `json:"criterion,omitempty"`
	Evidence    string `json:"evidence,omitempty"`
	Kind        string `json:"kind"`
	Text        string `json:"text"`
	Status      string `json:"status"`
	Folded      int    `json:"folded"`
	OpenedAt    string `json:"opened_at"`
	Reason      string `json:"reason,omitempty"`
	Proposal    string `json:"proposal,omitempty"`
	Edition     int    `json:"edition,omitempty"`
	DuplicateOf string `json:"duplicate_of,omitempty"`
	DecidedAt   string `json:"decided_at,omitempty"`
	DecidedBy   string `json:"decided_by,omitempty"`
}

// Reports is one page of GET /api/v1/reports.
type Reports struct {
	Reports []Report `json:"reports"`
	Total   int      `json:"total"`
	Page    int      `json:"page"`
	Pages   int      `json:"pages"`
	PerPage int      `json:"per_page"`
}

// ReportOf returns the API's form of a report row.
func ReportOf(r projections.Report) Report {
	return Report{ID: r.ID, Ranking: r.Ranking, Entry: r.Entry, Criterion: r.Criterion, Evidence: r.Evidence,
		Kind: r.Kind, Text: r.Text, Status: r.Status, Folded: r.Folded, OpenedAt: r.OpenedAt, Reason: r.Reason,
		Proposal: r.Proposal, Edition: r.Edition, DuplicateOf: r.DuplicateOf, DecidedAt: r.DecidedAt, DecidedBy: r.DecidedBy}
}

// ReportQuery reads the list's filters and page from a query string, for
// the API and the desk alike.
func ReportQuery(r *http.Request) (projections.ReportFilter, int, error) {
	q := r.URL.Query()
	f := projections.ReportFilter{Ranking: q.Get("ranking"), Status: q.Get("status")}
	if f.Ranking != "" && !events.ValidID(f.Ranking) {
		return f, 0, &httpx.BadField{Field: "ranking", Code: "field.slug"}
	}
	if f.Status != "" && !slices.Contains(domain.ReportStatuses, f.Status) {
		return f, 0, &httpx.BadField{Field: "status", Code: "field.report_status"}
	}
	page := 1
	if s := q.Get("page"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			return f, 0, &httpx.BadField{Field: "page", Code: "field.whole_number"}
		}
		page = n
	}
	return f, page, nil
}

// reportList answers GET /api/v1/reports?ranking=&status=&page=: a page of
// the reports, newest first, to editors; a page past the last is 404.
func reportList(read ReportReads) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !httpx.Actor(r.Context()).Has(domain.RoleEditor) {
			ui.Fail(w, r, domain.ErrRoleRequired)
			return
		}
		f, page, err := ReportQuery(r)
		if err != nil {
			ui.Fail(w, r, err)
			return
		}
		rows, total, err := read.ReportPage(r.Context(), f, ReportPerPage, (page-1)*ReportPerPage)
		if err != nil {
			ui.Fail(w, r, err)
			return
		}
		out := Reports{Reports: make([]Report, 0, len(rows)), Total: total, Page: page,
			Pages: max(1, (total+ReportPerPage-1)/ReportPerPage), PerPage: ReportPerPage}
		if page > out.Pages {
			ui.Fail(w, r, projections.ErrNotFound)
			return
		}
		for _, row := range rows {
			out.Reports = append(out.Reports, ReportOf(row))
		}
		httpx.WriteJSON(w, http.StatusOK, out)
	}
}

// reportOne answers GET /api/v1/reports/{id}, to editors.
func reportOne(read ReportReads) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !httpx.Actor(r.Context()).Has(domain.RoleEditor) {
			ui.Fail(w, r, domain.ErrRoleRequired)
			return
		}
		row, found, err := read.ReportRow(r.Context(), r.PathValue("id"))
		if err == nil && !found {
			err = domain.ErrReportMissing
		}
		if err != nil {
			ui.Fail(w, r, err)
			return
		}
		httpx.WriteJSON(w, http.StatusOK, ReportOf(row))
	}
}
