package desk

import (
	"context"
	"errors"
	"net/http"
	"strings"

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

// userAddInput is the add-user form.
type userAddInput struct {
	command.WithCommandID
	Username    string
	DisplayName string
	Password    string
	Roles       []string
}

var userAddAction = command.Action[userAddInput]{
	Name: "user.register",
	Form: func(f *httpx.Form, in *userAddInput) {
		in.Username = strings.ToLower(strings.TrimSpace(f.Str("username")))
		in.DisplayName, in.Password, in.Roles = strings.TrimSpace(f.Str("display_name")), f.Str("password"), f.Strs("roles")
	},
	Run: func(d *command.Deps, ctx context.Context, a domain.Actor, commandID string, in *userAddInput) (domain.Result, error) {
		if err := domain.CheckUsername(in.Username); err != nil {
			return domain.Result{}, err // before the deliberately slow hash
		}
		hash, err := hashNewPassword("password", in.Password)
		if err != nil {
			return domain.Result{}, err
		}
		return d.Commands.RegisterUser(ctx, a, domain.RegisterUser{CommandID: commandID, Username: in.Username,
			DisplayName: in.DisplayName, PasswordHash: hash, Roles: in.Roles})
	},
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
