package web

import (
	"context"
	"net/http"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/web/httpx"
)

// dismissVetoInput lifts a reviewer's reject by a publisher, with a reason.
type dismissVetoInput struct {
	withCommandID
	Proposal string `json:"-"`
	Voter    string `json:"voter"`
	Reason   string `json:"reason"`
}

var dismissVetoAction = action[dismissVetoInput]{
	name: "veto.dismiss",
	path: func(r *http.Request, in *dismissVetoInput) { in.Proposal = proposalPath(r) },
	form: func(f *httpx.Form, in *dismissVetoInput) { in.Voter, in.Reason = f.Str("voter"), f.Str("reason") },
	run:  (*Server).dismissVeto,
	resource: func(_ *Server, _ context.Context, in *dismissVetoInput, _ string) (string, string) {
		return proposalResource(in.Proposal)
	},
}

func (s *Server) dismissVeto(ctx context.Context, a domain.Actor, commandID string, in *dismissVetoInput) (domain.Result, error) {
	return s.cmd.DismissVeto(ctx, a, domain.DismissVeto{CommandID: commandID, Proposal: in.Proposal, Voter: in.Voter, Reason: in.Reason})
}
