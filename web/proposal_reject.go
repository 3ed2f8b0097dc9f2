package web

import (
	"context"
	"net/http"

	"github.com/crossrank/crossrank/domain"
)

// rejectInput closes a proposal for good: a publisher's decision.
type rejectInput struct {
	commandKey
	Proposal string `json:"-"`
	Reason   string `json:"reason"`
}

var rejectAction = action[rejectInput]{
	name: "proposal.reject",
	path: func(r *http.Request, in *rejectInput) { in.Proposal = proposalPath(r) },
	form: func(f *form, in *rejectInput) { in.Reason = f.str("reason") },
	run:  (*Server).rejectProposal,
	resource: func(_ *Server, _ context.Context, in *rejectInput, _ string) (string, string) {
		return proposalResource(in.Proposal)
	},
}

func (s *Server) rejectProposal(ctx context.Context, a domain.Actor, cmd string, in *rejectInput) (domain.Result, error) {
	return s.cmd.Reject(ctx, a, cmd, in.Proposal, in.Reason)
}
