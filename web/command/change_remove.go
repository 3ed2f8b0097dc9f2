package command

import (
	"context"
	"net/http"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/web/httpx"
)

// RemoveChangeInput drops a proposed change ("score:<criterion>" or
// "attr:<key>") from a draft.
type RemoveChangeInput struct {
	WithCommandID
	Proposal string `json:"-"`
	Target   string `json:"-"`
}

var RemoveChange = Action[RemoveChangeInput]{
	Name: "change.remove",
	Path: func(r *http.Request, in *RemoveChangeInput) {
		in.Proposal = proposalPath(r)
		if t := r.PathValue("target"); t != "" {
			in.Target = t
		}
	},
	Form: func(f *httpx.Form, in *RemoveChangeInput) { in.Target = f.Str("target") },
	Run:  removeChange,
	Resource: func(_ *Deps, _ context.Context, in *RemoveChangeInput, _ string) (string, string) {
		return proposalResource(in.Proposal)
	},
}

func removeChange(d *Deps, ctx context.Context, a domain.Actor, commandID string, in *RemoveChangeInput) (handler.Result, error) {
	return d.Commands.RemoveChange(ctx, a, domain.RemoveChange{CommandID: commandID, Proposal: in.Proposal, Target: in.Target})
}
