package command

import (
	"context"
	"net/http"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/web/httpx"
)

// RoleInput grants or revokes one role of the user in the path.
type RoleInput struct {
	WithCommandID
	User string `json:"-"`
	Role string `json:"role"`
}

func roleAction(name string, run func(d *Deps, ctx context.Context, a domain.Actor, commandID string, in *RoleInput) (handler.Result, error)) Action[RoleInput] {
	return Action[RoleInput]{
		Name: name,
		Path: func(r *http.Request, in *RoleInput) {
			in.User = userPath(r)
			if role := r.PathValue("role"); role != "" { // DELETE …/roles/{role}
				in.Role = role
			}
		},
		Form: func(f *httpx.Form, in *RoleInput) { in.Role = f.Str("role") },
		Run:  run,
		Resource: func(_ *Deps, _ context.Context, in *RoleInput, _ string) (string, string) {
			return in.User, userResource(in.User)
		},
	}
}

// GrantRole and RevokeRole give a user a role and take it away (admins;
// nobody grants themself one, and no admin drops their own admin role:
// the domain decides).
var (
	GrantRole = roleAction("user.grant_role",
		func(d *Deps, ctx context.Context, a domain.Actor, commandID string, in *RoleInput) (handler.Result, error) {
			return d.Commands.GrantRole(ctx, a, domain.GrantRole{CommandID: commandID, User: in.User, Role: in.Role})
		})
	RevokeRole = roleAction("user.revoke_role",
		func(d *Deps, ctx context.Context, a domain.Actor, commandID string, in *RoleInput) (handler.Result, error) {
			return d.Commands.RevokeRole(ctx, a, domain.RevokeRole{CommandID: commandID, User: in.User, Role: in.Role})
		})
)
