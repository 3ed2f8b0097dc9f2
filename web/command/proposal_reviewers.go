package command

import (
	"context"
	"net/http"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/web/httpx"
)

// ReviewersInput asks reviewers to review a proposal.
type ReviewersInput struct {
	WithCommandID
	Proposal  string   `json:"-"`
	Reviewers []string `json:"reviewers"`
}

var RequestReviewers = Action[ReviewersInput]{
	Name: "proposal.request_reviewers",
	Path: func(r *http.Request, in *ReviewersInput) { in.Proposal = proposalPath(r) },
	Form: func(f *httpx.Form, in *ReviewersInput) { in.Reviewers = f.Strs("reviewers") },
	Run: func(d *Deps, ctx context.Context, a domain.Actor, commandID string, in *ReviewersInput) (handler.Result, error) {
		return d.Commands.RequestReviewers(ctx, a, domain.RequestReviewers{CommandID: commandID, Proposal: in.Proposal,
			Reviewers: in.Reviewers})
	},
	Resource: func(_ *Deps, _ context.Context, in *ReviewersInput, _ string) (string, string) {
		return proposalResource(in.Proposal)
	},
}
