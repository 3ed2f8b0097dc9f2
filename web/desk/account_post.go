package desk

import (
	"net/http"

	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/paths"
	"github.com/crossrank/crossrank/web/ui"
)

// The account page's password and token forms run the API's actions
// (web/command: ChangePassword, IssueToken, RevokeToken).

func accountDone[In any](done string) func(*http.Request, *In, handler.Result) string {
	return func(*http.Request, *In, handler.Result) string { return paths.Account + "?done=" + done }
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
