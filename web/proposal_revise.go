package web

import (
	"context"
	"net/http"

	"github.com/crossrank/crossrank/domain"
)

// reviseInput opens a new revision of a proposal in review.
type reviseInput struct {
	commandKey
	Proposal string `json:"-"`
	Note     string `json:"note,omitempty"`
}

var reviseAction = action[reviseInput]{
	name: "proposal.revise",
	path: func(r *http.Request, in *reviseInput) { in.Proposal = proposalPath(r) },
	form: func(f *form, in *reviseInput) { in.Note = f.str("note") },
	run:  (*Server).reviseProposal,
	resource: func(_ *Server, _ context.Context, in *reviseInput, _ string) (string, string) {
		return proposalResource(in.Proposal)
	},
}

func (s *Server) reviseProposal(ctx context.Context, a domain.Actor, cmd string, in *reviseInput) (domain.Result, error) {
	return s.cmd.Revise(ctx, a, cmd, in.Proposal, in.Note)
}
