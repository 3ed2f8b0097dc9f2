package auth

import (
	"net/http"

	"github.com/crossrank/crossrank/web/ui"
)

// renderLogin renders the sign-in form in the page shell. A posted form is
// shown to whoever signs in now, not to the user of the request's cookie.
func (s *Service) renderLogin(w http.ResponseWriter, r *http.Request, status int, f LoginForm) {
	v := loginView{Page: ui.PageOf(r, "login.title", ""), LoginForm: f, SignIn: s.SignIn()}
	if f.Submitted {
		v.User = nil
	}
	ui.Render(w, r, status, loginPage(v))
}
