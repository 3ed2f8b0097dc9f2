package web

import (
	"context"
	"net/http"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/web/httpx"
)

// Revise, withdraw and reject share this file rather than have one each:
// they are one action three times (the proposal in the URL, one free text,
// one domain command), and only their names, the text's field and the
// command differ.

var (
	reviseAction = proposalTextAction("proposal.revise", "note", (*noteInput).fields,
		func(s *Server, ctx context.Context, a domain.Actor, commandID string, in *noteInput) (domain.Result, error) {
			return s.cmd.Revise(ctx, a, domain.Revise{CommandID: commandID, Proposal: in.Proposal, Note: in.Note})
		})
	withdrawAction = proposalTextAction("proposal.withdraw", "reason", (*reasonInput).fields,
		func(s *Server, ctx context.Context, a domain.Actor, commandID string, in *reasonInput) (domain.Result, error) {
			return s.cmd.Withdraw(ctx, a, domain.Withdraw{CommandID: commandID, Proposal: in.Proposal, Reason: in.Reason})
		})
	rejectAction = proposalTextAction("proposal.reject", "reason", (*reasonInput).fields,
		func(s *Server, ctx context.Context, a domain.Actor, commandID string, in *reasonInput) (domain.Result, error) {
			return s.cmd.Reject(ctx, a, domain.Reject{CommandID: commandID, Proposal: in.Proposal, Reason: in.Reason})
		})
)

// noteInput opens a new revision of a proposal in review; the note says
// what it answers.
type noteInput struct {
	withCommandID
	Proposal string `json:"-"`
	Note     string `json:"note,omitempty"`
}

func (in *noteInput) fields() (proposal, text *string) { return &in.Proposal, &in.Note }

// reasonInput closes a proposal: withdrawn by its author, or rejected for
// good by a publisher.
type reasonInput struct {
	withCommandID
	Proposal string `json:"-"`
	Reason   string `json:"reason"`
}

func (in *reasonInput) fields() (proposal, text *string) { return &in.Proposal, &in.Reason }

// proposalTextAction is the action named name on the proposal in the URL
// with one text: the JSON field of In's struct tag, or the form field named
// field. fields points at In's proposal id and text; run issues the domain
// command.
func proposalTextAction[In input](name, field string, fields func(*In) (proposal, text *string),
	run func(s *Server, ctx context.Context, a domain.Actor, commandID string, in *In) (domain.Result, error),
) action[In] {
	return action[In]{
		name: name,
		path: func(r *http.Request, in *In) {
			id, _ := fields(in)
			*id = proposalPath(r)
		},
		form: func(f *httpx.Form, in *In) {
			_, text := fields(in)
			*text = f.Str(field)
		},
		run: run,
		resource: func(_ *Server, _ context.Context, in *In, _ string) (string, string) {
			id, _ := fields(in)
			return proposalResource(*id)
		},
	}
}
