package command

import (
	"context"
	"net/http"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/web/httpx"
)

// RemoveEvidenceInput drops an uncited evidence item from a draft.
type RemoveEvidenceInput struct {
	WithCommandID
	Proposal string `json:"-"`
	Evidence string `json:"-"`
}

var RemoveEvidence = Action[RemoveEvidenceInput]{
	Name: "evidence.remove",
	Path: func(r *http.Request, in *RemoveEvidenceInput) {
		in.Proposal = proposalPath(r)
		if e := r.PathValue("evidence"); e != "" {
			in.Evidence = e
		}
	},
	Form: func(f *httpx.Form, in *RemoveEvidenceInput) { in.Evidence = f.Str("evidence_id") },
	Run:  removeEvidence,
	Resource: func(_ *Deps, _ context.Context, in *RemoveEvidenceInput, _ string) (string, string) {
		return proposalResource(in.Proposal)
	},
}

func removeEvidence(d *Deps, ctx context.Context, a domain.Actor, commandID string, in *RemoveEvidenceInput) (handler.Result, error) {
	return d.Commands.RemoveEvidence(ctx, a, domain.RemoveEvidence{CommandID: commandID, Proposal: in.Proposal, Evidence: in.Evidence})
}
