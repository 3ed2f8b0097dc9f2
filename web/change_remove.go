package web

import (
	"context"
	"net/http"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/web/httpx"
)

// removeChangeInput drops a proposed change ("score:<criterion>" or
// "attr:<key>") from a draft.
type removeChangeInput struct {
	withCommandID
	Proposal string `json:"-"`
	Target   string `json:"-"`
}

var removeChangeAction = action[removeChangeInput]{
	name: "change.remove",
	path: func(r *http.Request, in *removeChangeInput) {
		in.Proposal = proposalPath(r)
		if t := r.PathValue("target"); t != "" {
			in.Target = t
		}
	},
	form: func(f *httpx.Form, in *removeChangeInput) { in.Target = f.Str("target") },
	run:  (*Server).removeChange,
	resource: func(_ *Server, _ context.Context, in *removeChangeInput, _ string) (string, string) {
		return proposalResource(in.Proposal)
	},
}

func (s *Server) removeChange(ctx context.Context, a domain.Actor, commandID string, in *removeChangeInput) (domain.Result, error) {
	return s.cmd.RemoveChange(ctx, a, domain.RemoveChange{CommandID: commandID, Proposal: in.Proposal, Target: in.Target})
}
