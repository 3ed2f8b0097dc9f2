package command

import (
	"context"
	"net/http"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/web/httpx"
)

// SubmitInput sends a draft to review.
type SubmitInput struct {
	WithCommandID
	Proposal string `json:"-"`
}

var Submit = Action[SubmitInput]{
	Name: "proposal.submit",
	Path: func(r *http.Request, in *SubmitInput) { in.Proposal = proposalPath(r) },
	Form: func(*httpx.Form, *SubmitInput) {},
	Run:  submitProposal,
	Resource: func(_ *Deps, _ context.Context, in *SubmitInput, _ string) (string, string) {
		return proposalResource(in.Proposal)
	},
}

func submitProposal(d *Deps, ctx context.Context, a domain.Actor, commandID string, in *SubmitInput) (handler.Result, error) {
	return d.Commands.Submit(ctx, a, domain.Submit{CommandID: commandID, Proposal: in.Proposal})
}
