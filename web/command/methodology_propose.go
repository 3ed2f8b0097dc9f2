package command

import (
	"cmp"
	"context"
	"net/http"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/httpx"
)

// MethodologyInput proposes a ranking's whole methodology: into the draft
// Proposal, or, when Proposal is "", into a methodology proposal it opens
// for Ranking (one that defines it when NewRanking). The command id is the
// opened proposal's id.
type MethodologyInput struct {
	WithCommandID
	Proposal    string             `json:"proposal,omitempty"`
	Ranking     string             `json:"ranking"`
	NewRanking  bool               `json:"new_ranking,omitempty"`
	Title       string             `json:"title,omitempty"` // the proposal's; "" names it after the ranking
	Summary     string             `json:"summary,omitempty"`
	Rationale   domain.TextField   `json:"rationale"` // as AddEvidenceInput.Claim
	Methodology events.Methodology `json:"methodology"`
}

// EditMethodology is the desk's methodology form: it opens a methodology
// proposal with its methodology, or replaces the methodology of the draft
// the input names.
var EditMethodology = Action[MethodologyInput]{
	Name:    "methodology.propose",
	Created: true,
	Path: func(r *http.Request, in *MethodologyInput) {
		if id := r.PathValue("id"); id != "" {
			in.Proposal = id
		}
		if slug := r.PathValue("slug"); slug != "" {
			in.Ranking = slug
		}
	},
	Form: func(f *httpx.Form, in *MethodologyInput) {
		in.Ranking, in.NewRanking = f.Str("slug"), f.Bool("new_ranking")
		in.Title, in.Summary, in.Rationale = f.Str("proposal_title"), f.Str("summary"), formText(f, "rationale")
		in.Methodology = MethodologyForm(f)
	},
	Run: proposeMethodology,
	Resource: func(_ *Deps, _ context.Context, in *MethodologyInput, commandID string) (string, string) {
		return proposalResource(cmp.Or(in.Proposal, commandID))
	},
}

// proposeMethodology opens the proposal (id: the command id) with its
// methodology in one atomic append, or replaces a draft's.
func proposeMethodology(d *Deps, ctx context.Context, a domain.Actor, commandID string, in *MethodologyInput) (handler.Result, error) {
	if in.Proposal != "" {
		return d.Commands.ProposeMethodology(ctx, a, domain.ProposeMethodology{CommandID: commandID,
			Proposal: in.Proposal, Methodology: in.Methodology, Rationale: in.Rationale.Text()})
	}
	title := in.Title
	if title == "" {
		title = methodologyTitle(in.NewRanking, in.Methodology.Title)
	}
	m := in.Methodology
	res, err := d.Commands.OpenProposal(ctx, a, domain.OpenProposal{CommandID: commandID, ID: commandID,
		Ranking: in.Ranking, Title: title, Summary: in.Summary, Methodology: true, NewRanking: in.NewRanking,
		Proposed: &m, Rationale: in.Rationale.Text()})
	if err == nil {
		in.Proposal = commandID // the page to go to
	}
	return res, err
}

// methodologyTitle names a methodology proposal after its ranking.
func methodologyTitle(newRanking bool, t events.Text) string {
	zh, en := cmp.Or(t.Zh, t.En), cmp.Or(t.En, t.Zh)
	if newRanking {
		return "定义榜单：" + zh + " / Define the ranking: " + en
	}
	return "方法论变更：" + zh + " / Methodology change: " + en
}
