package web

import (
	"net/http"

	"github.com/a-h/templ"
	"github.com/crossrank/crossrank/web/paths"
	"github.com/crossrank/crossrank/web/ui"
)

// Forwarders for the sign-in files (auth.go, login.go, login.templ and
// their tests) only: another branch moves them to web/auth, so they are left
// untouched here and call web/ui and web/paths through these names. Delete
// this file when they move; nothing else in package web uses it.

// Page is ui.Page.
type Page = ui.Page

func (s *Server) page(r *http.Request, titleKey, section string) Page {
	return ui.PageOf(r, titleKey, section)
}

func (s *Server) render(w http.ResponseWriter, r *http.Request, status int, c templ.Component) {
	ui.Render(w, r, status, c)
}

func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) { ui.Fail(w, r, err) }

func layout(p Page) templ.Component { return ui.Layout(p) }

const (
	pathHome    = paths.Home
	pathLogin   = paths.Login
	pathDesk    = paths.Desk
	pathAccount = paths.Account
)
