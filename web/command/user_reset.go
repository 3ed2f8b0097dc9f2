package command

import (
	"context"
	"net/http"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/web/auth"
	"github.com/crossrank/crossrank/web/httpx"
)

// Sessions are the session operations the password commands need
// (*auth.Service).
type Sessions interface {
	// Reopen moves the session sid to the password whose hash is pwHash:
	// it stays signed in, and every other session of its user ends.
	Reopen(ctx context.Context, sid, pwHash string) error
	// EndSessions ends every session of user and returns how many it ended.
	EndSessions(ctx context.Context, user string) (int, error)
}

var _ Sessions = (*auth.Service)(nil)

// ResetInput is an admin's reset of another user's password. As with
// adding a user, a new password sent along is refused.
type ResetInput struct {
	WithCommandID
	User        string `json:"-"`
	NewPassword string `json:"new_password,omitempty"`
	token       string
}

// LinkToken returns the new one-time link's token, or "" when the command
// was a retry: the link was shown the first time.
func (in *ResetInput) LinkToken() string { return in.token }

// ResetPassword voids a user's password and issues a new link (admins,
// never on themself: the domain decides). The domain revokes the user's
// API tokens and inbox feed token in the same event; the sessions end
// because a session counts only while opened with the current password,
// and are ended here as well, so every replica drops them at once rather
// than at each session's next request.
func ResetPassword(s Sessions) Action[ResetInput] {
	return Action[ResetInput]{
		Name: "user.reset_password",
		Path: func(r *http.Request, in *ResetInput) { in.User = userPath(r) },
		Form: func(f *httpx.Form, in *ResetInput) { in.NewPassword = f.Str("new_password") },
		Run: func(d *Deps, ctx context.Context, a domain.Actor, commandID string, in *ResetInput) (handler.Result, error) {
			if in.NewPassword != "" {
				return handler.Result{}, domain.ErrPasswordNotOwn
			}
			token, hash := auth.NewLinkToken()
			res, err := d.Commands.ResetPassword(ctx, a, domain.ResetPassword{CommandID: commandID, User: in.User, LinkHash: hash})
			if err != nil {
				return res, err
			}
			if !res.Replayed {
				in.token = token
			}
			if _, rerr := s.EndSessions(ctx, in.User); rerr != nil {
				d.Log.Warn("password reset; the user's sessions end at their next request instead", "user", in.User, "err", rerr)
			}
			return res, nil
		},
		Resource: func(_ *Deps, _ context.Context, in *ResetInput, _ string) (string, string) {
			return in.User, userResource(in.User)
		},
	}
}

// InvitationRevokeInput voids the pending link of the user in the path.
type InvitationRevokeInput struct {
	WithCommandID
	User string `json:"-"`
}

// RevokeInvitation voids a user's pending one-time link (admins); a reset
// issues a new one.
var RevokeInvitation = Action[InvitationRevokeInput]{
	Name: "user.revoke_invitation",
	Path: func(r *http.Request, in *InvitationRevokeInput) { in.User = userPath(r) },
	Form: func(*httpx.Form, *InvitationRevokeInput) {},
	Run: func(d *Deps, ctx context.Context, a domain.Actor, commandID string, in *InvitationRevokeInput) (handler.Result, error) {
		return d.Commands.RevokeInvitation(ctx, a, domain.RevokeInvitation{CommandID: commandID, User: in.User})
	},
	Resource: func(_ *Deps, _ context.Context, in *InvitationRevokeInput, _ string) (string, string) {
		return in.User, userResource(in.User)
	},
}
