package command

import (
	"context"
	"net/http"
	"slices"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/web/httpx"
)

// CommentInput comments on a proposal: on the whole of it (on empty), on
// one change ("score:<criterion>", "attr:<key>", "methodology") or one
// evidence item ("evidence:<id>"); reply_to names the comment it answers.
type CommentInput struct {
	WithCommandID
	Proposal string `json:"-"`
	On       string `json:"on,omitempty"`
	ReplyTo  string `json:"reply_to,omitempty"`
	Body     string `json:"body"`
}

var AddComment = Action[CommentInput]{
	Name:    "proposal.comment",
	Created: true,
	Path:    func(r *http.Request, in *CommentInput) { in.Proposal = proposalPath(r) },
	Form: func(f *httpx.Form, in *CommentInput) {
		in.On, in.ReplyTo, in.Body = f.Str("on"), f.Str("reply_to"), f.Str("body")
	},
	Run: func(d *Deps, ctx context.Context, a domain.Actor, commandID string, in *CommentInput) (handler.Result, error) {
		if d.Comments != nil {
			if err := d.Comments.take(a.Name, d.Now()); err != nil {
				return handler.Result{}, err
			}
		}
		return d.Commands.AddComment(ctx, a, domain.AddComment{CommandID: commandID, Proposal: in.Proposal,
			On: in.On, ReplyTo: in.ReplyTo, Body: in.Body})
	},
	// The comment's id is the proposal's own numbering ("c3"): the one
	// its command's event added.
	Resource: func(d *Deps, ctx context.Context, in *CommentInput, commandID string) (string, string) {
		if p, err := d.Commands.Proposal(ctx, in.Proposal); err == nil {
			for _, c := range slices.Backward(p.Comments) {
				if c.Author == httpx.Actor(ctx).Name && c.Body == in.Body {
					return c.CommentID, "/api/v1/proposals/" + in.Proposal
				}
			}
		}
		return proposalResource(in.Proposal)
	},
}

// ResolveCommentInput resolves a comment's thread.
type ResolveCommentInput struct {
	WithCommandID
	Proposal string `json:"-"`
	Comment  string `json:"-"`
}

var ResolveComment = Action[ResolveCommentInput]{
	Name: "proposal.comment_resolve",
	Path: func(r *http.Request, in *ResolveCommentInput) {
		in.Proposal = proposalPath(r)
		if c := r.PathValue("comment"); c != "" {
			in.Comment = c
		}
	},
	Form: func(f *httpx.Form, in *ResolveCommentInput) { in.Comment = f.Str("comment") },
	Run: func(d *Deps, ctx context.Context, a domain.Actor, commandID string, in *ResolveCommentInput) (handler.Result, error) {
		return d.Commands.ResolveComment(ctx, a, domain.ResolveComment{CommandID: commandID, Proposal: in.Proposal,
			Comment: in.Comment})
	},
	Resource: func(_ *Deps, _ context.Context, in *ResolveCommentInput, _ string) (string, string) {
		return in.Comment, "/api/v1/proposals/" + in.Proposal
	},
}
