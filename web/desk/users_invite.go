package desk

import (
	"net/http"
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

// userInvite adds a user and answers with the page showing their link.
func (d *Desk) userInvite(w http.ResponseWriter, r *http.Request) {
	var in command.InviteInput
	issueLink(d, w, r, command.InviteUser, &in, "add", func() linkIssued {
		return linkIssued{Owner: in.Username, Token: in.LinkToken()}
	})
}

// userReset resets the password of the user in the path and answers with
// the page showing their new link.
func (d *Desk) userReset(w http.ResponseWriter, r *http.Request) {
	in := command.ResetInput{User: r.PathValue("name")}
	issueLink(d, w, r, command.ResetPassword(d.sessions), &in, "password", func() linkIssued {
		return linkIssued{Owner: in.User, Token: in.LinkToken(), Reset: true}
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
