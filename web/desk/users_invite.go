package desk

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/web/auth"
	"github.com/crossrank/crossrank/web/command"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/paths"
	"github.com/crossrank/crossrank/web/ui"
)

// Adding a user and resetting one both issue a one-time link on which the
// person chooses their own password: nobody but its owner ever knows a
// password, an admin neither (an admin who could choose passwords could
// sign in as the reviewers and publisher it created and publish alone).
// The link's token is drawn when the command runs and shown once, on the
// page answering the form, for the admin to pass on.

// userAddInput is the add-user form. Password is there only to be
// refused: a client that sends one expects it to count, and it never does.
type userAddInput struct {
	command.WithCommandID
	Username    string
	DisplayName string
	Password    string
	Roles       []string
	token       string
}

var userAddAction = command.Action[userAddInput]{
	Name: "user.invite",
	Form: func(f *httpx.Form, in *userAddInput) {
		in.Username = strings.ToLower(strings.TrimSpace(f.Str("username")))
		in.DisplayName, in.Password, in.Roles = strings.TrimSpace(f.Str("display_name")), f.Str("password"), f.Strs("roles")
	},
	Run: func(d *command.Deps, ctx context.Context, a domain.Actor, commandID string, in *userAddInput) (domain.Result, error) {
		if in.Password != "" {
			return domain.Result{}, domain.ErrPasswordNotOwn
		}
		token, hash := auth.NewLinkToken()
		res, err := d.Commands.InviteUser(ctx, a, domain.InviteUser{CommandID: commandID, Username: in.Username,
			DisplayName: in.DisplayName, Roles: in.Roles, LinkHash: hash})
		if err == nil && !res.Replayed {
			in.token = token
		}
		return res, err
	},
}

// passwordResetInput is an admin's reset of another user's password. As
// with adding a user, a new password in the form is refused.
type passwordResetInput struct {
	command.WithCommandID
	User  string
	New   string
	token string
}

// passwordResetAction voids a user's password and issues a new link. The
// domain revokes the user's API tokens and inbox feed token in the same
// event; the sessions end because a session counts only while opened with
// the current password, and are revoked here as well, so every replica
// drops them at once rather than at each session's next request.
func (d *Desk) passwordResetAction() command.Action[passwordResetInput] {
	return command.Action[passwordResetInput]{
		Name: "user.reset_password",
		Path: func(r *http.Request, in *passwordResetInput) { in.User = r.PathValue("name") },
		Form: func(f *httpx.Form, in *passwordResetInput) { in.New = f.Str("new_password") },
		Run: func(deps *command.Deps, ctx context.Context, a domain.Actor, commandID string, in *passwordResetInput) (domain.Result, error) {
			if in.New != "" {
				return domain.Result{}, domain.ErrPasswordNotOwn
			}
			token, hash := auth.NewLinkToken()
			res, err := deps.Commands.ResetPassword(ctx, a, domain.ResetPassword{CommandID: commandID, User: in.User, LinkHash: hash})
			if err != nil {
				return res, err
			}
			if !res.Replayed {
				in.token = token
			}
			if _, rerr := d.sessions.EndSessions(ctx, in.User); rerr != nil {
				deps.Log.Warn("password reset; the user's sessions end at their next request instead", "user", in.User, "err", rerr)
			}
			return res, nil
		},
	}
}

// invitationRevokeInput voids a user's pending link.
type invitationRevokeInput struct {
	command.WithCommandID
	User string
}

var invitationRevokeAction = command.Action[invitationRevokeInput]{
	Name: "user.revoke_invitation",
	Path: func(r *http.Request, in *invitationRevokeInput) { in.User = r.PathValue("name") },
	Form: func(*httpx.Form, *invitationRevokeInput) {},
	Run: func(d *command.Deps, ctx context.Context, a domain.Actor, commandID string, in *invitationRevokeInput) (domain.Result, error) {
		return d.Commands.RevokeInvitation(ctx, a, domain.RevokeInvitation{CommandID: commandID, User: in.User})
	},
}

// userInvite adds a user and answers with the page showing their link.
func (d *Desk) userInvite(w http.ResponseWriter, r *http.Request) {
	var in userAddInput
	issueLink(d, w, r, userAddAction, &in, "add", func() linkIssued {
		return linkIssued{Owner: in.Username, Token: in.token}
	})
}

// userReset resets the password of the user in the path and answers with
// the page showing their new link.
func (d *Desk) userReset(w http.ResponseWriter, r *http.Request) {
	in := passwordResetInput{User: r.PathValue("name")}
	issueLink(d, w, r, d.passwordResetAction(), &in, "password", func() linkIssued {
		return linkIssued{Owner: in.User, Token: in.token, Reset: true}
	})
}

// issueLink runs act from the form and answers with the page that shows
// the link, once: its token is stored nowhere the server could show it
// again. The answer is not a redirect for that reason; sending the form
// again (reload, double click) stores nothing and shows no link.
func issueLink[In command.Input](d *Desk, w http.ResponseWriter, r *http.Request, act command.Action[In], in *In,
	formID string, issued func() linkIssued) {
	f, err := httpx.ParseForm(r)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	act.Form(f, in)
	err = f.Err()
	if err == nil {
		_, _, err = command.Execute(d.write, r.Context(), act, f.CommandID(), in, true)
	}
	if err != nil {
		if httpx.Status(err) >= 500 {
			ui.Fail(w, r, err)
			return
		}
		d.RenderUsers(w, r, httpx.Status(err), formID, ui.FormStateOf(httpx.Lang(r.Context()), f, err))
		return
	}
	l := issued()
	if l.Token != "" {
		l.URL = auth.WelcomeURL(d.origin(r), l.Owner, l.Token)
		l.Expires = httpx.Now(r.Context()).Add(domain.InvitationTTL)
	}
	d.renderLinkIssued(w, r, l)
}

// origin is the site's address for links shown to be passed on: the
// configured public URL, else the address the admin's own request came to.
func (d *Desk) origin(r *http.Request) string {
	if d.publicURL != "" {
		return d.publicURL
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// linkIssued is a one-time link just issued, for the one page showing it.
type linkIssued struct {
	Owner   string
	Token   string // "" when the form was sent again: the link was shown the first time
	URL     string
	Reset   bool
	Expires time.Time
}

// linkIssuedView is the page that shows a new link, once.
type linkIssuedView struct {
	ui.Page
	linkIssued
	ExpiresText string
	Back        string
}

func (d *Desk) renderLinkIssued(w http.ResponseWriter, r *http.Request, l linkIssued) {
	title := "invite.issued_title"
	if l.Reset {
		title = "invite.reset_title"
	}
	v := linkIssuedView{Page: ui.PageOf(r, title, "users"), linkIssued: l, Back: paths.Users + "#user-" + l.Owner}
	if l.Token != "" {
		v.ExpiresText = v.DateTime(l.Expires)
	}
	ui.Render(w, r, http.StatusOK, linkIssuedPage(v))
}
