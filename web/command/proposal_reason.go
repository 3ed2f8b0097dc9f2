package command

import (
	"context"
	"net/http"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/web/httpx"
)

// Revise, withdraw and reject share this file rather than have one each:
// they are one action three times (the proposal in the URL, one free text,
// one domain command), and only their names, the text's field and the
// command differ.

var (
	Revise = proposalTextAction("proposal.revise", "note", (*NoteInput).fields,
		func(d *Deps, ctx context.Context, a domain.Actor, commandID string, in *NoteInput) (handler.Result, error) {
			return d.Commands.Revise(ctx, a, domain.Revise{CommandID: commandID, Proposal: in.Proposal, Note: in.Note})
		})
	Withdraw = proposalTextAction("proposal.withdraw", "reason", (*ReasonInput).fields,
		func(d *Deps, ctx context.Context, a domain.Actor, commandID string, in *ReasonInput) (handler.Result, error) {
			return d.Commands.Withdraw(ctx, a, domain.Withdraw{CommandID: commandID, Proposal: in.Proposal, Reason: in.Reason})
		})
	Reject = proposalTextAction("proposal.reject", "reason", (*ReasonInput).fields,
		func(d *Deps, ctx context.Context, a domain.Actor, commandID string, in *ReasonInput) (handler.Result, error) {
			return d.Commands.Reject(ctx, a, domain.Reject{CommandID: commandID, Proposal: in.Proposal, Reason: in.Reason})
		})
)

// NoteInput opens a new revision of a proposal in review; the note says
// what it answers.
type NoteInput struct {
	WithCommandID
	Proposal string `json:"-"`
	Note     string `json:"note,omitempty"`
}

func (in *NoteInput) fields() (proposal, text *string) { return &in.Proposal, &in.Note }

// ReasonInput closes a proposal: withdrawn by its author, or rejected for
// good by a publisher.
type ReasonInput struct {
	WithCommandID
	Proposal string `json:"-"`
	Reason   string `json:"reason"`
}

func (in *ReasonInput) fields() (proposal, text *string) { return &in.Proposal, &in.Reason }

// proposalTextAction is the action named name on the proposal in the URL
// with one text: the JSON field of In's struct tag, or the form field named
// field. fields points at In's proposal id and text; run issues the domain
// command.
func proposalTextAction[In Input](name, field string, fields func(*In) (proposal, text *string),
	run func(d *Deps, ctx context.Context, a domain.Actor, commandID string, in *In) (handler.Result, error),
) Action[In] {
	return Action[In]{
		Name: name,
		Path: func(r *http.Request, in *In) {
			id, _ := fields(in)
			*id = proposalPath(r)
		},
		Form: func(f *httpx.Form, in *In) {
			_, text := fields(in)
			*text = f.Str(field)
		},
		Run: run,
		Resource: func(_ *Deps, _ context.Context, in *In, _ string) (string, string) {
			id, _ := fields(in)
			return proposalResource(*id)
		},
	}
}
