package command

import (
	"context"
	"net/http"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/web/httpx"
)

// TokenRevokeInput revokes one token of a user: the one in the path
// ({name}), or the caller when the path names none (their own account).
type TokenRevokeInput struct {
	WithCommandID
	User  string `json:"-"`
	Token string `json:"-"`
}

// RevokeToken disables a token: its own user or an admin (the domain
// decides).
var RevokeToken = Action[TokenRevokeInput]{
	Name: "user.revoke_token",
	Path: func(r *http.Request, in *TokenRevokeInput) {
		in.User, in.Token = userPath(r), r.PathValue("token")
		if in.User == "" { // the account: one's own token
			in.User = httpx.Actor(r.Context()).Name
		}
	},
	Form: func(*httpx.Form, *TokenRevokeInput) {},
	Run: func(d *Deps, ctx context.Context, a domain.Actor, commandID string, in *TokenRevokeInput) (handler.Result, error) {
		return d.Commands.RevokeToken(ctx, a, domain.RevokeToken{CommandID: commandID, User: in.User, TokenID: in.Token})
	},
	Resource: func(_ *Deps, _ context.Context, in *TokenRevokeInput, _ string) (string, string) {
		return in.Token, ""
	},
}
