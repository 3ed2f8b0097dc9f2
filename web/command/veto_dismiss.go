package command

import (
	"context"
	"net/http"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/web/httpx"
)

// DismissVetoInput lifts a reviewer's reject by a publisher, with a reason.
type DismissVetoInput struct {
	WithCommandID
	Proposal string `json:"-"`
	Voter    string `json:"voter"`
	Reason   string `json:"reason"`
}

var DismissVeto = Action[DismissVetoInput]{
	Name: "veto.dismiss",
	Path: func(r *http.Request, in *DismissVetoInput) { in.Proposal = proposalPath(r) },
	Form: func(f *httpx.Form, in *DismissVetoInput) { in.Voter, in.Reason = f.Str("voter"), f.Str("reason") },
	Run:  dismissVeto,
	Resource: func(_ *Deps, _ context.Context, in *DismissVetoInput, _ string) (string, string) {
		return proposalResource(in.Proposal)
	},
}

func dismissVeto(d *Deps, ctx context.Context, a domain.Actor, commandID string, in *DismissVetoInput) (handler.Result, error) {
	return d.Commands.DismissVeto(ctx, a, domain.DismissVeto{CommandID: commandID, Proposal: in.Proposal, Voter: in.Voter, Reason: in.Reason})
}
