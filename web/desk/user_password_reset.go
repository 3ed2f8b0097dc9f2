package desk

import (
	"context"
	"net/http"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/web/command"
	"github.com/crossrank/crossrank/web/httpx"
)

// ErrOwnPasswordReset: an admin's own password is changed on the account
// page, which asks for the current one; the reset asks for none.
var ErrOwnPasswordReset = httpx.NewError("user.own_password_reset", "change your own password on your account page", domain.ErrForbidden)

// passwordResetInput is an admin's reset of another user's password.
type passwordResetInput struct {
	command.WithCommandID
	User string
	New  string
}

// passwordResetAction sets a user's password. The domain revokes all the
// user's API tokens in the same command; the user's sessions end because
// a session counts only while opened with the current password, and are
// revoked here as well, so every replica drops them at once rather than at
// each session's next request.
func (d *Desk) passwordResetAction() command.Action[passwordResetInput] {
	return command.Action[passwordResetInput]{
		Name: "user.reset_password",
		Path: func(r *http.Request, in *passwordResetInput) { in.User = r.PathValue("name") },
		Form: func(f *httpx.Form, in *passwordResetInput) { in.New = f.Str("new_password") },
		Run: func(deps *command.Deps, ctx context.Context, a domain.Actor, commandID string, in *passwordResetInput) (domain.Result, error) {
			if in.User == a.Name {
				return domain.Result{}, ErrOwnPasswordReset
			}
			hash, err := hashNewPassword("new_password", in.New)
			if err != nil {
				return domain.Result{}, err
			}
			res, err := deps.Commands.ChangePassword(ctx, a, domain.ChangePassword{CommandID: commandID, User: in.User, PasswordHash: hash})
			if err == nil {
				if _, rerr := d.sessions.EndSessions(ctx, in.User); rerr != nil {
					deps.Log.Warn("password reset; the user's sessions end at their next request instead", "user", in.User, "err", rerr)
				}
			}
			return res, err
		},
	}
}
