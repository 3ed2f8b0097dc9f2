package desk

import (
	"net/http"

	"github.com/crossrank/crossrank/web/ui"
)

// tokenIssuedView is the page that shows a new token, once.
type tokenIssuedView struct {
	ui.Page
	Owner  string
	Name   string
	Token  string // "" when the form was sent again: the token was shown the first time
	Back   string
	Bearer string // an example header
}

// TokenIssued is a token just issued, for the one page that shows it.
type TokenIssued struct {
	Owner string // the user it signs in as
	Name  string
	Token string // "" when the form was sent again: the token was shown the first time
	Back  string // where the page links back to
}

// RenderTokenIssued shows t, once: the token is stored nowhere the server
// could show it again.
func (d *Desk) RenderTokenIssued(w http.ResponseWriter, r *http.Request, t TokenIssued) {
	v := tokenIssuedView{Page: ui.PageOf(r, "apitoken.issued_title", ""), Owner: t.Owner, Name: t.Name, Token: t.Token, Back: t.Back}
	if t.Token != "" {
		v.Bearer = "Authorization: Bearer " + t.Token
	}
	ui.Render(w, r, http.StatusOK, tokenIssuedPage(v))
}
