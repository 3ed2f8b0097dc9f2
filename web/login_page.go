package web

import (
	"context"
	"net/http"
	"net/url"

	"github.com/crossrank/crossrank/web/auth"
)

// loginPage renders the sign-in form for package auth, in the page shell.
// A posted form is shown to whoever signs in now, not to the user of the
// request's cookie.
func (s *Server) loginPage(w http.ResponseWriter, r *http.Request, status int, f auth.LoginForm) {
	v := loginView{Page: s.page(r, "login.title", ""), LoginForm: f}
	if f.Submitted {
		v.User = nil
	}
	s.render(w, r, status, loginPage(v))
}

// ShareSessions keeps the server's sign-in sessions in b (see
// auth.Service.Share).
func (s *Server) ShareSessions(ctx context.Context, b auth.Bucket) error { return s.auth.Share(ctx, b) }

// loginURL returns the sign-in page that sends the user on to next, for
// the page shell's sign-in link. Package auth has its own copy for its
// redirects until the paths move to the page shell's package.
func loginURL(next string) string {
	if next == "" || next == pathHome {
		return pathLogin
	}
	return pathLogin + "?next=" + url.QueryEscape(next)
}
