package web

import (
	"context"
	"net/http"

	"github.com/crossrank/crossrank/domain"
)

// withdrawInput closes a proposal by its author.
type withdrawInput struct {
	commandKey
	Proposal string `json:"-"`
	Reason   string `json:"reason,omitempty"`
}

var withdrawAction = action[withdrawInput]{
	name: "proposal.withdraw",
	path: func(r *http.Request, in *withdrawInput) { in.Proposal = proposalPath(r) },
	form: func(f *form, in *withdrawInput) { in.Reason = f.str("reason") },
	run:  (*Server).withdrawProposal,
	resource: func(_ *Server, _ context.Context, in *withdrawInput, _ string) (string, string) {
		return proposalResource(in.Proposal)
	},
}

func (s *Server) withdrawProposal(ctx context.Context, a domain.Actor, cmd string, in *withdrawInput) (domain.Result, error) {
	return s.cmd.Withdraw(ctx, a, cmd, in.Proposal, in.Reason)
}
