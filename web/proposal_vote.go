package web

import (
	"context"
	"net/http"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/web/httpx"
)

// voteInput is a reviewer's verdict on a revision: approve (listing the
// evidence they verified) or reject (with a reason in comment).
type voteInput struct {
	withCommandID
	Proposal         string   `json:"-"`
	Verdict          string   `json:"verdict"`
	Revision         int      `json:"revision"`
	VerifiedEvidence []string `json:"verified_evidence"`
	Comment          string   `json:"comment,omitempty"`
}

var voteAction = action[voteInput]{
	name:    "proposal.vote",
	created: true,
	path:    func(r *http.Request, in *voteInput) { in.Proposal = proposalPath(r) },
	form: func(f *httpx.Form, in *voteInput) {
		in.Verdict, in.Revision, in.Comment = f.Str("verdict"), f.Int("revision"), f.Str("comment")
		in.VerifiedEvidence = f.Strs("verified_evidence")
	},
	run: (*Server).castVote,
	resource: func(_ *Server, _ context.Context, in *voteInput, _ string) (string, string) {
		return proposalResource(in.Proposal)
	},
}

func (s *Server) castVote(ctx context.Context, a domain.Actor, commandID string, in *voteInput) (domain.Result, error) {
	return s.cmd.CastVote(ctx, a, domain.CastVote{CommandID: commandID, Proposal: in.Proposal, Revision: in.Revision,
		Verdict: in.Verdict, VerifiedEvidence: in.VerifiedEvidence, Comment: in.Comment})
}
