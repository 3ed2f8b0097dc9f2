package desk

import (
	"context"
	"errors"
	"net/http"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/web/auth"
	"github.com/crossrank/crossrank/web/command"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/paths"
	"github.com/crossrank/crossrank/web/ui"
)

// hashNewPassword hashes a password typed into field, or reports its
// length next to the field.
func hashNewPassword(field, pw string) (string, error) {
	h, err := auth.HashPassword(pw)
	if errors.Is(err, auth.ErrPasswordLength) {
		return "", &domain.FieldError{Field: field, Code: "field.password_length", Args: domain.Args{"min": auth.MinPassword, "max": auth.MaxPassword}}
	}
	return h, err
}

// userRoleInput grants or revokes one role.
type userRoleInput struct {
	command.WithCommandID
	User string
	Role string
}

func roleAction(name string, run func(d *command.Deps, ctx context.Context, a domain.Actor, commandID string, in *userRoleInput) (domain.Result, error)) command.Action[userRoleInput] {
	return command.Action[userRoleInput]{
		Name: name,
		Path: func(r *http.Request, in *userRoleInput) { in.User = r.PathValue("name") },
		Form: func(f *httpx.Form, in *userRoleInput) { in.Role = f.Str("role") },
		Run:  run,
	}
}

var (
	roleGrantAction = roleAction("user.grant_role",
		func(d *command.Deps, ctx context.Context, a domain.Actor, commandID string, in *userRoleInput) (domain.Result, error) {
			return d.Commands.GrantRole(ctx, a, domain.GrantRole{CommandID: commandID, User: in.User, Role: in.Role})
		})
	roleRevokeAction = roleAction("user.revoke_role",
		func(d *command.Deps, ctx context.Context, a domain.Actor, commandID string, in *userRoleInput) (domain.Result, error) {
			return d.Commands.RevokeRole(ctx, a, domain.RevokeRole{CommandID: commandID, User: in.User, Role: in.Role})
		})
)

// usersDone returns to the users page with a notice (done is a catalog
// key suffix, never user input), at the user the form acted on.
func usersDone[In any](done string) func(r *http.Request, _ *In, _ domain.Result) string {
	return func(r *http.Request, _ *In, _ domain.Result) string {
		u := paths.Users + "?done=" + done
		if name := r.PathValue("name"); domain.CheckUsername(name) == nil {
			u += "#user-" + name
		}
		return u
	}
}

// usersFailed shows the users page again with the failed form's message.
func usersFailed[In any](d *Desk, formID string) func(w http.ResponseWriter, r *http.Request, _ *In, st ui.FormState, status int) {
	return func(w http.ResponseWriter, r *http.Request, _ *In, st ui.FormState, status int) {
		d.RenderUsers(w, r, status, formID, st)
	}
}
