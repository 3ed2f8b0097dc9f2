package desk

import (
	"context"
	"net/http"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/web/auth"
	"github.com/crossrank/crossrank/web/command"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/paths"
	"github.com/crossrank/crossrank/web/ui"
)

// passwordChangeInput is the change-password form: the current password
// proves it is the user at the keyboard, not someone at an unlocked screen.
type passwordChangeInput struct {
	command.WithCommandID
	Current string
	New     string
	Confirm string
}

func (d *Desk) passwordChangeAction() command.Action[passwordChangeInput] {
	return command.Action[passwordChangeInput]{
		Name: "user.change_password",
		Form: func(f *httpx.Form, in *passwordChangeInput) {
			in.Current, in.New, in.Confirm = f.Str("current_password"), f.Str("new_password"), f.Str("confirm_password")
		},
		Run: func(deps *command.Deps, ctx context.Context, a domain.Actor, commandID string, in *passwordChangeInput) (domain.Result, error) {
			u := httpx.User(ctx)
			if !auth.CheckPassword(u.PasswordHash, in.Current) {
				return domain.Result{}, &domain.FieldError{Field: "current_password", Code: "field.wrong_password"}
			}
			if in.New != in.Confirm {
				return domain.Result{}, &domain.FieldError{Field: "confirm_password", Code: "field.password_mismatch"}
			}
			hash, err := hashNewPassword("new_password", in.New)
			if err != nil {
				return domain.Result{}, err
			}
			res, err := deps.Commands.ChangePassword(ctx, a, domain.ChangePassword{CommandID: commandID, User: u.Username, PasswordHash: hash})
			if err == nil {
				// Every other session of the user ends with the old password;
				// this one moves to the new one.
				if rerr := d.sessions.Reopen(ctx, httpx.FromContext(ctx).Session, hash); rerr != nil {
					deps.Log.Warn("password changed; this session could not be moved to it", "err", rerr)
				}
			}
			return res, err
		},
	}
}

func accountDone[In any](done string) func(*http.Request, *In, domain.Result) string {
	return func(*http.Request, *In, domain.Result) string { return paths.Account + "?done=" + done }
}

func accountFailed[In any](d *Desk, formID string) func(http.ResponseWriter, *http.Request, *In, ui.FormState, int) {
	return func(w http.ResponseWriter, r *http.Request, _ *In, st ui.FormState, status int) {
		d.RenderAccount(w, r, status, formID, st)
	}
}

// accountTokenIssue issues a token for the signed-in user.
func (d *Desk) accountTokenIssue(w http.ResponseWriter, r *http.Request) {
	d.tokenIssue(w, r, httpx.User(r.Context()).Username, paths.Account, func(st ui.FormState, status int) {
		d.RenderAccount(w, r, status, "token", st)
	})
}
