package web

import (
	"context"
	"net/http"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/web/httpx"
)

// removeEvidenceInput drops an uncited evidence item from a draft.
type removeEvidenceInput struct {
	withCommandID
	Proposal string `json:"-"`
	Evidence string `json:"-"`
}

var removeEvidenceAction = action[removeEvidenceInput]{
	name: "evidence.remove",
	path: func(r *http.Request, in *removeEvidenceInput) {
		in.Proposal = proposalPath(r)
		if e := r.PathValue("evidence"); e != "" {
			in.Evidence = e
		}
	},
	form: func(f *httpx.Form, in *removeEvidenceInput) { in.Evidence = f.Str("evidence_id") },
	run:  (*Server).removeEvidence,
	resource: func(_ *Server, _ context.Context, in *removeEvidenceInput, _ string) (string, string) {
		return proposalResource(in.Proposal)
	},
}

func (s *Server) removeEvidence(ctx context.Context, a domain.Actor, commandID string, in *removeEvidenceInput) (domain.Result, error) {
	return s.cmd.RemoveEvidence(ctx, a, domain.RemoveEvidence{CommandID: commandID, Proposal: in.Proposal, Evidence: in.Evidence})
}
