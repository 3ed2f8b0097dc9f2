package web

import (
	"context"
	"net/http"

	"github.com/crossrank/crossrank/domain"
)

// Revise, withdraw and reject share this file rather than have one each:
// they are one action three times (the proposal in the URL, one free text,
// one domain command), and only their names, the text's field and the
// command differ.

var (
	reviseAction   = proposalTextAction("proposal.revise", "note", (*noteInput).fields, (*domain.Handler).Revise)
	withdrawAction = proposalTextAction("proposal.withdraw", "reason", (*reasonInput).fields, (*domain.Handler).Withdraw)
	rejectAction   = proposalTextAction("proposal.reject", "reason", (*reasonInput).fields, (*domain.Handler).Reject)
)

// noteInput opens a new revision of a proposal in review; the note says
// what it answers.
type noteInput struct {
	commandKey
	Proposal string `json:"-"`
	Note     string `json:"note,omitempty"`
}

func (in *noteInput) fields() (proposal, text *string) { return &in.Proposal, &in.Note }

// reasonInput closes a proposal: withdrawn by its author, or rejected for
// good by a publisher.
type reasonInput struct {
	commandKey
	Proposal string `json:"-"`
	Reason   string `json:"reason"`
}

func (in *reasonInput) fields() (proposal, text *string) { return &in.Proposal, &in.Reason }

// proposalTextAction is the action named name that runs command on the
// proposal in the URL with one text: the JSON field of In's struct tag, or
// the form field named field. fields points at In's proposal id and text.
func proposalTextAction[In input](name, field string, fields func(*In) (proposal, text *string),
	command func(h *domain.Handler, ctx context.Context, a domain.Actor, cmd, proposal, text string) (domain.Result, error),
) action[In] {
	return action[In]{
		name: name,
		path: func(r *http.Request, in *In) {
			id, _ := fields(in)
			*id = proposalPath(r)
		},
		form: func(f *form, in *In) {
			_, text := fields(in)
			*text = f.str(field)
		},
		run: func(s *Server, ctx context.Context, a domain.Actor, cmd string, in *In) (domain.Result, error) {
			id, text := fields(in)
			return command(s.cmd, ctx, a, cmd, *id, *text)
		},
		resource: func(_ *Server, _ context.Context, in *In, _ string) (string, string) {
			id, _ := fields(in)
			return proposalResource(*id)
		},
	}
}
