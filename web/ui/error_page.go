package ui

import (
	"bytes"
	"net/http"

	"github.com/crossrank/crossrank/web/httpx"
)

// ErrorView is the model of the error page.
type ErrorView struct {
	Page
	Status  int
	Message string
	SignIn  bool // offer the sign-in link (401)
}

// renderError renders the error page for status. It must not fail itself:
// if the template errs, a plain-text answer goes out.
func renderError(w http.ResponseWriter, r *http.Request, status int, err error) {
	p := PageOf(r, "", "")
	p.Title = httpx.StatusTitle(p.Lang, status)
	v := ErrorView{Page: p, Status: status, Message: httpx.Message(p.Lang, err), SignIn: status == http.StatusUnauthorized}
	var buf bytes.Buffer
	if rerr := ErrorPage(v).Render(r.Context(), &buf); rerr != nil {
		httpx.Log(r.Context()).Error("error page failed", "request_id", p.RequestID, "err", rerr)
		http.Error(w, p.Title, status)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = buf.WriteTo(w)
}
