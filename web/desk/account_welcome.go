package desk

import (
	"errors"
	"net/http"
	"net/url"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/web/auth"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/i18n"
	"github.com/crossrank/crossrank/web/paths"
	"github.com/crossrank/crossrank/web/ui"
)

// welcomeView is the page of a one-time link: the person the link was
// issued to chooses their password.
type welcomeView struct {
	ui.Page
	Username string
	Token    string
	Valid    bool // false: the link was used, revoked, replaced or has expired
	State    ui.FormState
	SignIn   auth.SignIn
}

// OIDCURL accepts the link by signing in through the provider.
func (v welcomeView) OIDCURL() string {
	return paths.LoginOIDC + "?" + url.Values{"user": {v.Username}, "token": {v.Token}}.Encode()
}

// serveWelcome shows the form of a one-time link, or says the link is no
// longer valid (404, whatever the reason, so the page tells a guesser
// nothing).
func (d *Desk) serveWelcome(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	v := welcomeView{Page: ui.PageOf(r, "welcome.title", ""), Username: q.Get("user"), Token: q.Get("token")}
	v.Valid = d.linkOpen(r, v.Username, v.Token)
	d.renderWelcome(w, r, v)
}

// acceptWelcome sets the password chosen on a one-time link and sends the
// person to sign in with it. An invalid link costs no password hash: the
// link is checked first.
func (d *Desk) acceptWelcome(w http.ResponseWriter, r *http.Request) {
	f, err := httpx.ParseForm(r)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	ctx := r.Context()
	v := welcomeView{Page: ui.PageOf(r, "welcome.title", ""), Username: f.Str("user"), Token: f.Str("token"), Valid: true}
	if d.signIn.NoPasswords {
		// Passwords are off: the link is accepted through the provider.
		v.Valid = d.linkOpen(r, v.Username, v.Token)
		v.State = ui.FormState{Summary: i18n.T(httpx.Lang(ctx), "login.passwords_off", d.signIn.Provider)}
		d.renderWelcomeStatus(w, r, http.StatusForbidden, v)
		return
	}
	commandID, err := httpx.CommandID(v.Username, f.CommandID(), httpx.Now(ctx))
	if err == nil {
		err = f.Err()
	}
	c := domain.AcceptInvitation{CommandID: commandID, User: v.Username, LinkHash: auth.LinkHash(v.Token)}
	if err == nil && d.linkOpen(r, v.Username, v.Token) {
		switch pw := f.Str("password"); {
		case pw != f.Str("confirm_password"):
			err = &domain.FieldError{Field: "confirm_password", Code: "field.password_mismatch"}
		default:
			c.PasswordHash, err = hashNewPassword("password", pw)
		}
	}
	// A link that is not open is still sent on, without a hash: a double
	// submit of the form that used it is a replay, and succeeds.
	if err == nil {
		_, err = d.cmd.AcceptInvitation(ctx, c)
	}
	switch {
	case err == nil:
		http.Redirect(w, r, paths.Login+"?welcome=1", http.StatusSeeOther)
	case errors.Is(err, domain.ErrInvitationInvalid) || errors.Is(err, domain.ErrUserMissing):
		v.Valid = false
		d.renderWelcome(w, r, v)
	case httpx.Status(err) >= 500:
		ui.Fail(w, r, err)
	default:
		v.State = ui.FormStateOf(httpx.Lang(ctx), f, err)
		d.renderWelcomeStatus(w, r, httpx.Status(err), v)
	}
}

// linkOpen reports whether token opens user's pending link now.
func (d *Desk) linkOpen(r *http.Request, user, token string) bool {
	if domain.CheckUsername(user) != nil || token == "" || len(token) > 100 {
		return false
	}
	u, err := d.cmd.User(r.Context(), user)
	return err == nil && u.InvitationOpen(auth.LinkHash(token), httpx.Now(r.Context()))
}

func (d *Desk) renderWelcome(w http.ResponseWriter, r *http.Request, v welcomeView) {
	status := http.StatusOK
	if !v.Valid {
		status = http.StatusNotFound
	}
	d.renderWelcomeStatus(w, r, status, v)
}

func (d *Desk) renderWelcomeStatus(w http.ResponseWriter, r *http.Request, status int, v welcomeView) {
	v.SignIn = d.signIn
	// The address holds the link's token: no cache keeps the page, and no
	// link on it sends the address on.
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Referrer-Policy", "no-referrer")
	ui.Render(w, r, status, welcomePage(v))
}
