package command

import (
	"context"
	"net/http"
	"strings"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events"
)

// OpenAnyInput is the body of POST /api/v1/proposals: an entry proposal
// (OpenInput), or with "kind": "methodology" a methodology proposal that
// is opened and given its whole methodology in one request.
// Its members are OpenInput's, named here rather than embedded so that a
// decode error names the field as the body does ("title").
type OpenAnyInput struct {
	WithCommandID
	Ranking     string              `json:"ranking"`
	Entry       string              `json:"entry"`
	Title       string              `json:"title"`
	Summary     string              `json:"summary,omitempty"`
	NewEntry    *NewEntryInput      `json:"new_entry,omitempty"`
	Kind        string              `json:"kind,omitempty"`
	NewRanking  bool                `json:"new_ranking,omitempty"`
	Methodology *events.Methodology `json:"methodology,omitempty"`
	Rationale   domain.TextField    `json:"rationale,omitzero"` // as AddEvidenceInput.Claim
}

// OpenAnyProposal opens an entry proposal or a methodology proposal,
// whichever the body's kind names. The command id is the proposal's id.
var OpenAnyProposal = Action[OpenAnyInput]{
	Name:    "proposal.open",
	Created: true,
	Run:     openAnyProposal,
	Resource: func(_ *Deps, _ context.Context, _ *OpenAnyInput, commandID string) (string, string) {
		return proposalResource(commandID)
	},
}

func openAnyProposal(d *Deps, ctx context.Context, a domain.Actor, commandID string, in *OpenAnyInput) (handler.Result, error) {
	switch in.Kind {
	case domain.KindEntry:
		if in.NewRanking || in.Methodology != nil || in.Rationale != (domain.TextField{}) {
			return handler.Result{}, domain.Invalid("kind", "field.methodology_kind", nil)
		}
		return openProposal(d, ctx, a, commandID, &OpenInput{WithCommandID: in.WithCommandID, Ranking: in.Ranking,
			Entry: in.Entry, Title: in.Title, Summary: in.Summary, NewEntry: in.NewEntry})
	case domain.KindMethodology:
	default:
		return handler.Result{}, domain.Invalid("kind", "field.unknown_kind", domain.Args{"value": in.Kind})
	}
	if in.Methodology == nil {
		return handler.Result{}, domain.Invalid("methodology", "field.required", nil)
	}
	// Opened with its methodology in one atomic append: a request refused
	// for the methodology stores nothing, and a retry replays the whole.
	res, err := d.Commands.OpenProposal(ctx, a, domain.OpenProposal{CommandID: commandID, ID: commandID,
		Ranking: in.Ranking, Entry: in.Entry, Title: in.Title, Summary: in.Summary,
		Methodology: true, NewRanking: in.NewRanking, Proposed: in.Methodology, Rationale: in.Rationale.Text()})
	return res, underMethodology(err)
}

// ProposeMethodologyInput replaces the methodology a draft proposes.
type ProposeMethodologyInput struct {
	WithCommandID
	Proposal    string              `json:"-"`
	Methodology *events.Methodology `json:"methodology"`
	Rationale   domain.TextField    `json:"rationale"` // as AddEvidenceInput.Claim
}

// ProposeMethodology serves PUT /api/v1/proposals/{id}/methodology.
var ProposeMethodology = Action[ProposeMethodologyInput]{
	Name: "methodology.propose",
	Path: func(r *http.Request, in *ProposeMethodologyInput) { in.Proposal = proposalPath(r) },
	Run: func(d *Deps, ctx context.Context, a domain.Actor, commandID string, in *ProposeMethodologyInput) (handler.Result, error) {
		if in.Methodology == nil {
			return handler.Result{}, domain.Invalid("methodology", "field.required", nil)
		}
		res, err := d.Commands.ProposeMethodology(ctx, a, domain.ProposeMethodology{CommandID: commandID,
			Proposal: in.Proposal, Methodology: *in.Methodology, Rationale: in.Rationale.Text()})
		return res, underMethodology(err)
	},
	Resource: func(_ *Deps, _ context.Context, in *ProposeMethodologyInput, _ string) (string, string) {
		return proposalResource(in.Proposal)
	},
}

// underMethodology names a field error of the methodology by its path in
// the request body: the domain's "criteria[3].weight" is the body's
// "methodology.criteria[3].weight".
func underMethodology(err error) error {
	fe, ok := err.(*domain.FieldError)
	if !ok || fe.Field == "" || fe.Field == "rationale" || fe.Field == "methodology" || strings.HasPrefix(fe.Field, "methodology.") {
		return err
	}
	out := *fe
	out.Field = "methodology." + fe.Field
	return &out
}
