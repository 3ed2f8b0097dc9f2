package command

import (
	"context"
	"net/http"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/web/httpx"
)

// AddEvidenceInput attaches a source to a draft proposal.
type AddEvidenceInput struct {
	WithCommandID
	Proposal string `json:"-"`
	// Claim is {"zh", "en"}, or one string read as the language it is
	// written in (domain.TextField), as clients sent before issue 43.
	Claim        domain.TextField `json:"claim"`
	SourceURL    string           `json:"source_url,omitempty"`
	SourceName   string           `json:"source_name,omitempty"`
	Section      string           `json:"section,omitempty"`
	Excerpt      string           `json:"excerpt"`
	ObservedOn   string           `json:"observed_on"`
	ValidForDays int              `json:"valid_for_days,omitempty"`
	// Tier is "vendor", "third_party" or "own"; absent or "": not stated.
	Tier string `json:"tier,omitempty"`
}

var AddEvidence = Action[AddEvidenceInput]{
	Name:    "evidence.add",
	Created: true,
	Path:    func(r *http.Request, in *AddEvidenceInput) { in.Proposal = proposalPath(r) },
	Form: func(f *httpx.Form, in *AddEvidenceInput) {
		in.Claim, in.SourceURL, in.SourceName = formText(f, "claim"), f.Str("source_url"), f.Str("source_name")
		in.Section, in.Excerpt, in.ObservedOn = f.Str("section"), f.Str("excerpt"), f.Str("observed_on")
		in.ValidForDays, in.Tier = f.Int("valid_for_days"), f.Str("tier")
	},
	Run: addEvidence,
	Resource: func(_ *Deps, _ context.Context, in *AddEvidenceInput, _ string) (string, string) {
		return proposalResource(in.Proposal)
	},
}

func addEvidence(d *Deps, ctx context.Context, a domain.Actor, commandID string, in *AddEvidenceInput) (handler.Result, error) {
	return d.Commands.AddEvidence(ctx, a, domain.AddEvidence{CommandID: commandID,
		Proposal: in.Proposal, Claim: in.Claim.Text(), SourceURL: in.SourceURL, SourceName: in.SourceName,
		Section: in.Section, Excerpt: in.Excerpt, ObservedOn: in.ObservedOn, ValidForDays: in.ValidForDays,
		Tier: domain.Tier(in.Tier),
	})
}
