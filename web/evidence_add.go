package web

import (
	"context"
	"net/http"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/web/httpx"
)

// addEvidenceInput attaches a source to a draft proposal.
type addEvidenceInput struct {
	withCommandID
	Proposal     string `json:"-"`
	Claim        string `json:"claim"`
	SourceURL    string `json:"source_url,omitempty"`
	SourceName   string `json:"source_name,omitempty"`
	Section      string `json:"section,omitempty"`
	Excerpt      string `json:"excerpt"`
	ObservedOn   string `json:"observed_on"`
	ValidForDays int    `json:"valid_for_days,omitempty"`
}

var addEvidenceAction = action[addEvidenceInput]{
	name:    "evidence.add",
	created: true,
	path:    func(r *http.Request, in *addEvidenceInput) { in.Proposal = proposalPath(r) },
	form: func(f *httpx.Form, in *addEvidenceInput) {
		in.Claim, in.SourceURL, in.SourceName = f.Str("claim"), f.Str("source_url"), f.Str("source_name")
		in.Section, in.Excerpt, in.ObservedOn = f.Str("section"), f.Str("excerpt"), f.Str("observed_on")
		in.ValidForDays = f.Int("valid_for_days")
	},
	run: (*Server).addEvidence,
	resource: func(_ *Server, _ context.Context, in *addEvidenceInput, _ string) (string, string) {
		return proposalResource(in.Proposal)
	},
}

func (s *Server) addEvidence(ctx context.Context, a domain.Actor, commandID string, in *addEvidenceInput) (domain.Result, error) {
	return s.cmd.AddEvidence(ctx, a, domain.AddEvidence{CommandID: commandID,
		Proposal: in.Proposal, Claim: in.Claim, SourceURL: in.SourceURL, SourceName: in.SourceName,
		Section: in.Section, Excerpt: in.Excerpt, ObservedOn: in.ObservedOn, ValidForDays: in.ValidForDays,
	})
}
