package command

import (
	"context"
	"net/http"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/web/httpx"
)

// An editor's triage of a reader's report: accept (a draft proposal on the
// report's entry, whose id is the command id, as when opening one), decline
// with a public reason, or mark it a duplicate of another report.

// ReportTriageInput is the report in the URL and the triage's one field.
type ReportTriageInput struct {
	WithCommandID
	Report string `json:"-"`
	Reason string `json:"reason,omitempty"` // decline
	Of     string `json:"of,omitempty"`     // duplicate
}

// ReportAccepted is the API's answer to an accepted report.
type ReportAccepted struct {
	Proposal string `json:"proposal"` // the draft proposal opened for the report
	Command  string `json:"command"`
	Sequence uint64 `json:"sequence"`
	Replayed bool   `json:"replayed,omitempty"`
}

func reportPath(r *http.Request, in *ReportTriageInput) { in.Report = r.PathValue("id") }

func reportResource(_ *Deps, _ context.Context, in *ReportTriageInput, _ string) (string, string) {
	return in.Report, "/api/v1/reports/" + in.Report
}

var (
	AcceptReport = Action[ReportTriageInput]{
		Name: "report.accept", Created: true, Path: reportPath,
		Form: func(*httpx.Form, *ReportTriageInput) {},
		Run: func(d *Deps, ctx context.Context, a domain.Actor, commandID string, in *ReportTriageInput) (handler.Result, error) {
			return d.Commands.AcceptReport(ctx, a, domain.AcceptReport{CommandID: commandID, Report: in.Report, Proposal: commandID})
		},
		Resource: func(_ *Deps, _ context.Context, _ *ReportTriageInput, commandID string) (string, string) {
			return proposalResource(commandID)
		},
		Answer: func(_ *Deps, _ context.Context, _ *ReportTriageInput, commandID string, res handler.Result) any {
			return ReportAccepted{Proposal: commandID, Command: commandID, Sequence: res.Sequence, Replayed: res.Replayed}
		},
	}
	DeclineReport = Action[ReportTriageInput]{
		Name: "report.decline", Path: reportPath,
		Form: func(f *httpx.Form, in *ReportTriageInput) { in.Reason = f.Str("reason") },
		Run: func(d *Deps, ctx context.Context, a domain.Actor, commandID string, in *ReportTriageInput) (handler.Result, error) {
			return d.Commands.DeclineReport(ctx, a, domain.DeclineReport{CommandID: commandID, Report: in.Report, Reason: in.Reason})
		},
		Resource: reportResource,
	}
	MarkDuplicate = Action[ReportTriageInput]{
		Name: "report.duplicate", Path: reportPath,
		Form: func(f *httpx.Form, in *ReportTriageInput) { in.Of = f.Str("of") },
		Run: func(d *Deps, ctx context.Context, a domain.Actor, commandID string, in *ReportTriageInput) (handler.Result, error) {
			return d.Commands.MarkDuplicate(ctx, a, domain.MarkDuplicate{CommandID: commandID, Report: in.Report, Of: in.Of})
		},
		Resource: reportResource,
	}
)
