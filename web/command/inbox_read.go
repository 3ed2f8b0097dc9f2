package command

import (
	"context"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/web/httpx"
)

// InboxReadInput marks the caller's inbox read up to a stream sequence
// (an inbox row's "seq").
type InboxReadInput struct {
	WithCommandID
	UpTo uint64 `json:"up_to"`
}

var MarkInboxRead = Action[InboxReadInput]{
	Name: "inbox.read",
	Form: func(f *httpx.Form, in *InboxReadInput) { in.UpTo = uint64(max(f.Int("up_to"), 0)) },
	Run: func(d *Deps, ctx context.Context, a domain.Actor, commandID string, in *InboxReadInput) (handler.Result, error) {
		return d.Commands.MarkInboxRead(ctx, a, domain.MarkInboxRead{CommandID: commandID, User: a.Name, UpTo: in.UpTo})
	},
	Resource: func(_ *Deps, ctx context.Context, _ *InboxReadInput, _ string) (string, string) {
		return httpx.Actor(ctx).Name, "/api/v1/inbox"
	},
}
