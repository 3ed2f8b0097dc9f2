package command

import (
	"context"
	"net/http"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/web/httpx"
)

// ReviewersInput asks reviewers to review a proposal, optionally by a due
// date: an RFC 3339 time, or a date (YYYY-MM-DD), which means the end of
// that day in UTC. Naming a requested reviewer again with another due date
// replaces theirs.
type ReviewersInput struct {
	WithCommandID
	Proposal  string   `json:"-"`
	Reviewers []string `json:"reviewers"`
	Due       string   `json:"due,omitempty"`
}

var RequestReviewers = Action[ReviewersInput]{
	Name: "proposal.request_reviewers",
	Path: func(r *http.Request, in *ReviewersInput) { in.Proposal = proposalPath(r) },
	Form: func(f *httpx.Form, in *ReviewersInput) { in.Reviewers, in.Due = f.Strs("reviewers"), f.Str("due") },
	Run: func(d *Deps, ctx context.Context, a domain.Actor, commandID string, in *ReviewersInput) (handler.Result, error) {
		due, err := domain.ParseDue(in.Due)
		if err != nil {
			return handler.Result{}, err
		}
		return d.Commands.RequestReviewers(ctx, a, domain.RequestReviewers{CommandID: commandID, Proposal: in.Proposal,
			Reviewers: in.Reviewers, Due: due})
	},
	Resource: func(_ *Deps, _ context.Context, in *ReviewersInput, _ string) (string, string) {
		return proposalResource(in.Proposal)
	},
}
