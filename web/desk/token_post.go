package desk

import (
	"net/http"

	"github.com/crossrank/crossrank/web/command"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/paths"
	"github.com/crossrank/crossrank/web/ui"
)

// The issue and revoke actions are the API's too (web/command): one
// implementation for both doors.

// userTokenIssue issues a token for the user in the path, from the users
// page (admins; the domain refuses anyone but the admin themself).
func (d *Desk) userTokenIssue(w http.ResponseWriter, r *http.Request) {
	d.tokenIssue(w, r, r.PathValue("name"), paths.Users+"#user-"+r.PathValue("name"), func(st ui.FormState, status int) {
		d.RenderUsers(w, r, status, "token", st)
	})
}

// tokenIssue runs the issue form for user and answers with the page that
// shows the token, once: it is not stored anywhere the server could show
// it again. The answer is not a redirect for that reason; sending the form
// again (reload, double click) stores nothing and shows no token.
func (d *Desk) tokenIssue(w http.ResponseWriter, r *http.Request, user, back string, failed func(ui.FormState, int)) {
	f, err := httpx.ParseForm(r)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	in := command.TokenIssueInput{User: user}
	command.IssueToken.Form(f, &in)
	err = f.Err()
	if err == nil {
		_, _, err = command.Execute(d.write, r.Context(), command.IssueToken, f.CommandID(), &in, true)
	}
	if err != nil {
		if httpx.Status(err) >= 500 {
			ui.Fail(w, r, err)
			return
		}
		failed(ui.FormStateOf(httpx.Lang(r.Context()), f, err), httpx.Status(err))
		return
	}
	d.RenderTokenIssued(w, r, TokenIssued{Owner: user, Name: in.Name, Token: in.Secret(), Back: back})
}
