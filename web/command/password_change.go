package command

import (
	"context"
	"errors"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/auth"
	"github.com/crossrank/crossrank/web/httpx"
)

// ErrPasswordNeedsSession refuses a password change signed in by an API
// token: a token is a credential handed to a program, and the program
// must not turn it into the person's password. Nor may a stolen token try
// current passwords here, where the sign-in throttle does not count them.
// The person changes it signed in with their password (the desk's
// account page, or the API with the session cookie).
var ErrPasswordNeedsSession = httpx.NewError("account.password_needs_session",
	"a password is changed signed in with the password, not with an API token", domain.ErrForbidden)

// PasswordChangeInput is the signed-in user's change of their own
// password: the current password proves it is the user at the keyboard,
// not someone at an unlocked screen. Confirm is checked when sent (the
// desk's form always sends it).
type PasswordChangeInput struct {
	WithCommandID
	Current string  `json:"current_password"`
	New     string  `json:"new_password"`
	Confirm *string `json:"confirm_password,omitempty"`
}

// ChangePassword replaces the caller's password; s moves the caller's
// session to the new one (every other session ends with the old).
func ChangePassword(s Sessions) Action[PasswordChangeInput] {
	return Action[PasswordChangeInput]{
		Name: "user.change_password",
		Form: func(f *httpx.Form, in *PasswordChangeInput) {
			confirm := f.Str("confirm_password")
			in.Current, in.New, in.Confirm = f.Str("current_password"), f.Str("new_password"), &confirm
		},
		Run: func(d *Deps, ctx context.Context, a domain.Actor, commandID string, in *PasswordChangeInput) (handler.Result, error) {
			if a.Via.Method == events.ViaToken {
				return handler.Result{}, ErrPasswordNeedsSession
			}
			u := httpx.User(ctx)
			if !auth.CheckPassword(u.PasswordHash, in.Current) {
				return handler.Result{}, &domain.FieldError{Field: "current_password", Code: "field.wrong_password"}
			}
			if in.Confirm != nil && in.New != *in.Confirm {
				return handler.Result{}, &domain.FieldError{Field: "confirm_password", Code: "field.password_mismatch"}
			}
			hash, err := HashNewPassword("new_password", in.New)
			if err != nil {
				return handler.Result{}, err
			}
			res, err := d.Commands.ChangePassword(ctx, a, domain.ChangePassword{CommandID: commandID, User: u.Username, PasswordHash: hash})
			if err == nil {
				// Every other session of the user ends with the old password;
				// this one moves to the new one.
				if sid := httpx.FromContext(ctx).Session; sid != "" {
					if rerr := s.Reopen(ctx, sid, hash); rerr != nil {
						d.Log.Warn("password changed; this session could not be moved to it", "err", rerr)
					}
				}
			}
			return res, err
		},
		Resource: func(_ *Deps, ctx context.Context, _ *PasswordChangeInput, _ string) (string, string) {
			return httpx.Actor(ctx).Name, ""
		},
	}
}

// HashNewPassword hashes a password typed into field, or reports its
// length next to the field.
func HashNewPassword(field, pw string) (string, error) {
	h, err := auth.HashPassword(pw)
	if errors.Is(err, auth.ErrPasswordLength) {
		return "", &domain.FieldError{Field: field, Code: "field.password_length", Args: domain.Args{"min": auth.MinPassword, "max": auth.MaxPassword}}
	}
	return h, err
}
