package desk

import (
	"net/http"
	"net/url"

	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/paths"
	"github.com/crossrank/crossrank/web/ui"
)

// accountView is the model of the account page.
type accountView struct {
	ui.Page
	Roles  []roleCell
	Tokens []tokenView
	Failed string
	State  ui.FormState
}

// StateFor returns the failed state of form.
func (v accountView) StateFor(form string) ui.FormState {
	if v.Failed == form {
		return v.State
	}
	return ui.FormState{}
}

// serveAccount shows the signed-in user's roles and API tokens.
func (d *Desk) serveAccount(w http.ResponseWriter, r *http.Request) {
	d.RenderAccount(w, r, http.StatusOK, "", ui.FormState{})
}

// RenderAccount shows the account page with status; st is the state of
// the form formID after a failed submit ("" for none).
func (d *Desk) RenderAccount(w http.ResponseWriter, r *http.Request, status int, formID string, st ui.FormState) {
	v := accountView{Page: ui.PageOf(r, "account.title", ""), Failed: formID, State: st}
	v.Notice = doneNotice(v.Lang, "account", r)
	v.Roles = roleCells(v.Page, v.User.Roles)
	tokens, err := d.read.Tokens(r.Context(), v.User.Username)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	for _, t := range tokens {
		v.Tokens = append(v.Tokens, tokenViewOf(v.Page, t, httpx.Now(r.Context())))
	}
	ui.Render(w, r, status, accountPage(v))
}

// accountRevokeURL is the form revoking one of the user's own tokens.
func accountRevokeURL(id string) string {
	return paths.Account + "/tokens/" + url.PathEscape(id) + "/revoke"
}
