package auth

import (
	"net/http"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/i18n"
	"github.com/crossrank/crossrank/web/ui"
)

// identityCredential is what a session opened through the provider was
// opened with, as a password session's is the password hash: the account
// keeps the session only while it is still bound to the same subject (a
// reset drops the binding, and with it every such session).
func identityCredential(id *domain.Identity) string {
	if id == nil {
		return ""
	}
	return "oidc\x00" + id.Issuer + "\x00" + id.Subject
}

// sessionCredential is the credential u's session opened via must still
// match: the bound subject for a sign-in through the provider, else the
// password hash.
func sessionCredential(u *domain.User, via events.Via) string {
	if via.Method == events.ViaOIDC {
		if u.Identity == nil || u.Identity.Issuer != via.Issuer {
			return "\x00unbound" // matches no session's digest
		}
		return identityCredential(u.Identity)
	}
	return u.PasswordHash
}

// clock is the request's clock, for checks of a token's times.
func (s *Service) clock(rq *httpx.Request) func() time.Time {
	if rq.Clock != nil {
		return rq.Clock
	}
	return time.Now
}

// oidcRefuse answers a sign-in through the provider that signed nobody in
// with status and the message msg (a catalog key).
func (s *Service) oidcRefuse(w http.ResponseWriter, r *http.Request, status int, msg string) {
	name := ""
	if s.oidc != nil {
		name = s.oidc.name
	}
	lang := httpx.Lang(r.Context())
	text := i18n.T(lang, msg)
	if namesProvider[msg] {
		text = i18n.T(lang, msg, name)
	}
	v := oidcRefusedView{Page: ui.PageOf(r, "oidc.refused_title", ""), Reason: msg, Message: text}
	v.User = nil // whoever was signed in, this page is about the sign-in that failed
	ui.Render(w, r, status, oidcRefusedPage(v))
}

// namesProvider lists the messages that name the provider.
var namesProvider = map[string]bool{"oidc.unknown": true, "oidc.unavailable": true, "oidc.provider_refused": true,
	"oidc.token_invalid": true, "oidc.taken": true}
