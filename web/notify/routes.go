package notify

import (
	"net/http"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/ui"
)

// Guards are the sign-in checks the routes need (web/auth's).
type Guards struct {
	User func(http.Handler) http.Handler
	Role func(role string, h http.Handler) http.Handler
}

// Routes lists the mail routes. mail nil (a server without --smtp-url):
// the pages say no mail is sent and the API answers 404 (mail.off).
func Routes(mux *http.ServeMux, mail Mail, g Guards) {
	h := handlers{mail: mail}
	// The desk's mail settings, under the account.
	mux.Handle("GET /desk/account/mail", g.User(http.HandlerFunc(h.settings)))
	mux.Handle("POST /desk/account/mail/address", g.User(http.HandlerFunc(h.addressForm)))
	mux.Handle("POST /desk/account/mail/prefs", g.User(http.HandlerFunc(h.prefsForm)))
	// Their JSON door, and the operator's: an admin sets a confirmed address.
	mux.Handle("GET /api/v1/account/mail", g.User(http.HandlerFunc(h.apiAccount)))
	mux.Handle("PUT /api/v1/account/mail/address", g.User(http.HandlerFunc(h.apiAddress)))
	mux.Handle("PUT /api/v1/account/mail/prefs", g.User(http.HandlerFunc(h.apiPrefs)))
	mux.Handle("PUT /api/v1/users/{name}/mail", g.Role(domain.RoleAdmin, http.HandlerFunc(h.apiOperator)))
	// What a mail links to: no sign-in, the token is the key. The one-click
	// unsubscribe (RFC 8058) is posted by the mail client itself, without
	// a cookie and from no page of this site.
	// A browser posting the pages' buttons sees a page when the link is
	// wrong; anything else (the mail client) reads a problem.
	mux.Handle("GET /mail/confirm", ui.ProblemsUnlessHTML(http.HandlerFunc(h.confirmAsk)))
	mux.Handle("POST /mail/confirm", ui.ProblemsUnlessHTML(http.HandlerFunc(h.confirm)))
	mux.Handle("GET /mail/unsubscribe", ui.ProblemsUnlessHTML(http.HandlerFunc(h.unsubscribeAsk)))
	mux.Handle(UnsubscribePattern, ui.ProblemsUnlessHTML(http.HandlerFunc(h.unsubscribe)))
}

// UnsubscribePattern is the route of the one-click unsubscribe, which the
// server lets past its cross-origin check.
const UnsubscribePattern = "POST /mail/unsubscribe"

type handlers struct{ mail Mail }

func user(r *http.Request) string { return httpx.Actor(r.Context()).Name }

// apiAccount answers GET /api/v1/account/mail.
func (h handlers) apiAccount(w http.ResponseWriter, r *http.Request) {
	if h.mail == nil {
		ui.Fail(w, r, ErrMailOff)
		return
	}
	a, err := h.mail.Account(r.Context(), user(r))
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, a)
}

// AddressInput is the body of PUT /api/v1/account/mail/address and of
// PUT /api/v1/users/{name}/mail ("" erases, for the operator).
type AddressInput struct {
	Address string `json:"address"`
}

// apiAddress answers PUT /api/v1/account/mail/address: the address waits
// for its link (202).
func (h handlers) apiAddress(w http.ResponseWriter, r *http.Request) {
	var in AddressInput
	if err := bySession(r); err != nil {
		ui.Fail(w, r, err)
		return
	}
	if err := h.decode(r, &in); err != nil {
		ui.Fail(w, r, err)
		return
	}
	if err := h.mail.RequestAddress(r.Context(), user(r), in.Address, httpx.FromContext(r.Context()).Lang); err != nil {
		ui.Fail(w, r, err)
		return
	}
	h.writeAccount(w, r, user(r), http.StatusAccepted)
}

// apiPrefs answers PUT /api/v1/account/mail/prefs.
func (h handlers) apiPrefs(w http.ResponseWriter, r *http.Request) {
	var in Prefs
	if err := h.decode(r, &in); err != nil {
		ui.Fail(w, r, err)
		return
	}
	if err := h.mail.SetPrefs(r.Context(), user(r), in); err != nil {
		ui.Fail(w, r, err)
		return
	}
	h.writeAccount(w, r, user(r), http.StatusOK)
}

// apiOperator answers PUT /api/v1/users/{name}/mail: an admin gives a user
// a confirmed address, or erases it with "".
func (h handlers) apiOperator(w http.ResponseWriter, r *http.Request) {
	var in AddressInput
	if err := h.decode(r, &in); err != nil {
		ui.Fail(w, r, err)
		return
	}
	name := r.PathValue("name")
	if err := h.mail.SetConfirmed(r.Context(), httpx.Actor(r.Context()), name, in.Address); err != nil {
		ui.Fail(w, r, err)
		return
	}
	h.writeAccount(w, r, name, http.StatusOK)
}

// bySession refuses a request signed in by an API token
// (ErrAddressNeedsSession).
func bySession(r *http.Request) error {
	if httpx.FromContext(r.Context()).Token != "" {
		return ErrAddressNeedsSession
	}
	return nil
}

func (h handlers) decode(r *http.Request, dst any) error {
	if h.mail == nil {
		return ErrMailOff
	}
	return httpx.DecodeJSON(r, dst)
}

func (h handlers) writeAccount(w http.ResponseWriter, r *http.Request, name string, status int) {
	a, err := h.mail.Account(r.Context(), name)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	httpx.WriteJSON(w, status, a)
}
