package web

import (
	"context"
	"net/http"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/web/httpx"
)

// submitInput sends a draft to review.
type submitInput struct {
	withCommandID
	Proposal string `json:"-"`
}

var submitAction = action[submitInput]{
	name: "proposal.submit",
	path: func(r *http.Request, in *submitInput) { in.Proposal = proposalPath(r) },
	form: func(*httpx.Form, *submitInput) {},
	run:  (*Server).submitProposal,
	resource: func(_ *Server, _ context.Context, in *submitInput, _ string) (string, string) {
		return proposalResource(in.Proposal)
	},
}

func (s *Server) submitProposal(ctx context.Context, a domain.Actor, commandID string, in *submitInput) (domain.Result, error) {
	return s.cmd.Submit(ctx, a, domain.Submit{CommandID: commandID, Proposal: in.Proposal})
}
