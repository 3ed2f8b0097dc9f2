package command

import (
	"context"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/web/httpx"
)

// FeedTokenInput sets the caller's private inbox feed token: only its
// SHA-256 (hex) is stored; the token itself is shown once.
type FeedTokenInput struct {
	WithCommandID
	Hash string `json:"-"`
}

// SetFeedToken stores a new token's hash; the API handler draws the token.
var SetFeedToken = Action[FeedTokenInput]{
	Name:    "inbox.feed_token",
	Created: true,
	Form:    func(*httpx.Form, *FeedTokenInput) {},
	Run: func(d *Deps, ctx context.Context, a domain.Actor, commandID string, in *FeedTokenInput) (handler.Result, error) {
		return d.Commands.SetFeedToken(ctx, a, domain.SetFeedToken{CommandID: commandID, User: a.Name, Hash: in.Hash})
	},
	Resource: func(_ *Deps, ctx context.Context, _ *FeedTokenInput, _ string) (string, string) {
		return httpx.Actor(ctx).Name, ""
	},
}

// RevokeFeedToken revokes the caller's inbox feed token: the feed's
// address stops answering.
var RevokeFeedToken = Action[FeedTokenInput]{
	Name:      "inbox.feed_token_revoke",
	NoContent: true,
	Form:      func(*httpx.Form, *FeedTokenInput) {},
	Run: func(d *Deps, ctx context.Context, a domain.Actor, commandID string, _ *FeedTokenInput) (handler.Result, error) {
		return d.Commands.SetFeedToken(ctx, a, domain.SetFeedToken{CommandID: commandID, User: a.Name})
	},
	Resource: func(_ *Deps, ctx context.Context, _ *FeedTokenInput, _ string) (string, string) {
		return httpx.Actor(ctx).Name, ""
	},
}
