package auth

import (
	"net/http"

	"github.com/coreos/go-oidc/v3/oidc"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/web/httpx"
	"golang.org/x/oauth2"
)

// oidcStart sends the browser to the provider to sign in: a fresh state,
// nonce and PKCE verifier go into the flow cookie, the state, the nonce
// and the verifier's S256 challenge to the provider. ?next= is where to go
// afterwards (a path on this site only); ?user=&token= is an invitation's
// link, accepted by the sign-in. The link is not checked here: the
// callback checks it when it binds, and a stale one fails there the same.
func (s *Service) oidcStart(w http.ResponseWriter, r *http.Request) {
	rq := httpx.FromContext(r.Context())
	if s.oidc == nil {
		s.oidcRefuse(w, r, http.StatusNotFound, "oidc.off")
		return
	}
	p, err := s.oidc.discover(r.Context(), rq.Now)
	if err != nil {
		s.log.Warn("OpenID sign-in: provider unavailable", "request_id", rq.ID, "err", err)
		w.Header().Set("Retry-After", retrySeconds(discoveryBackoff))
		s.oidcRefuse(w, r, http.StatusServiceUnavailable, "oidc.unavailable")
		return
	}
	q := r.URL.Query()
	f := newFlow(oauth2.GenerateVerifier(), safeNext(q.Get("next")))
	if user, token := q.Get("user"), q.Get("token"); user != "" || token != "" {
		if domain.CheckUsername(user) != nil || token == "" || len(token) > 100 {
			s.oidcRefuse(w, r, http.StatusNotFound, "welcome.invalid")
			return
		}
		f.InviteUser, f.InviteToken = user, token
	}
	if err := s.flows.set(w, f); err != nil {
		s.oidcRefuse(w, r, http.StatusInternalServerError, "oidc.unavailable")
		return
	}
	to := s.oidc.oauth2(p, r, s.secure).AuthCodeURL(f.State, oidc.Nonce(f.Nonce), oauth2.S256ChallengeOption(f.Verifier))
	http.Redirect(w, r, to, http.StatusSeeOther)
}
