package command

import (
	"context"
	"net/http"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/web/httpx"
)

// VoteInput is a reviewer's verdict on a revision: approve (listing the
// evidence they verified) or reject (with a reason in comment).
type VoteInput struct {
	WithCommandID
	Proposal         string   `json:"-"`
	Verdict          string   `json:"verdict"`
	Revision         int      `json:"revision"`
	VerifiedEvidence []string `json:"verified_evidence"`
	Comment          string   `json:"comment,omitempty"`
}

var Vote = Action[VoteInput]{
	Name:    "proposal.vote",
	Created: true,
	Path:    func(r *http.Request, in *VoteInput) { in.Proposal = proposalPath(r) },
	Form: func(f *httpx.Form, in *VoteInput) {
		in.Verdict, in.Revision, in.Comment = f.Str("verdict"), f.Int("revision"), f.Str("comment")
		in.VerifiedEvidence = f.Strs("verified_evidence")
	},
	Run: castVote,
	Resource: func(_ *Deps, _ context.Context, in *VoteInput, _ string) (string, string) {
		return proposalResource(in.Proposal)
	},
}

func castVote(d *Deps, ctx context.Context, a domain.Actor, commandID string, in *VoteInput) (handler.Result, error) {
	return d.Commands.CastVote(ctx, a, domain.CastVote{CommandID: commandID, Proposal: in.Proposal, Revision: in.Revision,
		Verdict: in.Verdict, VerifiedEvidence: in.VerifiedEvidence, Comment: in.Comment})
}
