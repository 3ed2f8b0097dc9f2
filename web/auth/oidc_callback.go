package auth

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"net/http"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/httpx"
	"golang.org/x/oauth2"
)

// errIdentityTaken: the subject already signs in as another account.
var errIdentityTaken = errors.New("the provider's subject is bound to another account")

// oidcCallback finishes a sign-in through the provider. It is a GET (the
// provider redirects the browser here), and it changes nothing unless
// every check holds, in this order: the flow cookie of this browser, the
// state it holds (once), the provider's answer, the code redeemed with
// the PKCE verifier, the ID token (signature from the provider's JWKS,
// issuer, audience, expiry) and its nonce. Then the subject must be an
// account's — bound before, or bound now by the invitation the flow
// carries. Anyone else gets no account and no session.
func (s *Service) oidcCallback(w http.ResponseWriter, r *http.Request) {
	rq := httpx.FromContext(r.Context())
	if s.oidc == nil {
		s.oidcRefuse(w, r, http.StatusNotFound, "oidc.off")
		return
	}
	q := r.URL.Query()
	f, ok := s.flows.take(w, r)
	switch {
	case !ok:
		s.oidcDeny(w, r, http.StatusBadRequest, "oidc.flow_invalid", "no flow cookie")
		return
	case !sameState(q.Get("state"), f.State):
		s.oidcDeny(w, r, http.StatusBadRequest, "oidc.flow_invalid", "state missing or not the flow's")
		return
	case !s.states.use(f.State, rq.Now):
		s.oidcDeny(w, r, http.StatusBadRequest, "oidc.flow_invalid", "state answered before (replay)")
		return
	case q.Get("error") != "":
		s.oidcDeny(w, r, http.StatusUnauthorized, "oidc.provider_refused", "provider error "+trimmed(q.Get("error")))
		return
	case q.Get("code") == "":
		s.oidcDeny(w, r, http.StatusBadRequest, "oidc.flow_invalid", "no code")
		return
	}
	iss, sub, err := s.oidcIdentity(r, f, q.Get("code"))
	if errors.Is(err, events.ErrUnavailable) {
		s.log.Warn("OpenID sign-in: provider unavailable", "request_id", rq.ID, "err", err)
		s.oidcRefuse(w, r, http.StatusServiceUnavailable, "oidc.unavailable")
		return
	}
	if err != nil {
		s.oidcDeny(w, r, http.StatusUnauthorized, "oidc.token_invalid", err.Error())
		return
	}
	u, err := s.oidcAccount(r.Context(), f, iss, sub)
	switch {
	case errors.Is(err, domain.ErrInvitationInvalid) || errors.Is(err, domain.ErrUserMissing):
		s.oidcDeny(w, r, http.StatusNotFound, "welcome.invalid", "invitation not open")
		return
	case errors.Is(err, errIdentityTaken):
		s.oidcDeny(w, r, http.StatusConflict, "oidc.taken", "subject "+sub+" at "+iss+" already bound")
		return
	case errors.Is(err, domain.ErrNotFound):
		s.oidcDeny(w, r, http.StatusForbidden, "oidc.unknown", "unknown subject "+sub+" at "+iss)
		return
	case err != nil:
		s.log.Error("OpenID sign-in: finding the account", "request_id", rq.ID, "err", err)
		s.oidcRefuse(w, r, httpx.Status(err), "login.unavailable")
		return
	}
	via := events.Via{Method: events.ViaOIDC, Issuer: iss}
	if err := s.openSession(w, r, u.Username, identityCredential(u.Identity), via); err != nil {
		s.log.Error("OpenID sign-in: opening the session", "request_id", rq.ID, "err", err)
		s.oidcRefuse(w, r, httpx.Status(err), "login.unavailable")
		return
	}
	s.log.Info("signed in", "request_id", rq.ID, "user", u.Username, "via", via.String())
	http.Redirect(w, r, safeNext(f.Next), http.StatusSeeOther)
}

// oidcIdentity redeems the code (with the flow's PKCE verifier) and
// returns the verified ID token's issuer and subject. A provider that
// cannot be reached is events.ErrUnavailable; every other failure is a
// token that does not count.
func (s *Service) oidcIdentity(r *http.Request, f oidcFlow, code string) (iss, sub string, err error) {
	rq := httpx.FromContext(r.Context())
	p, err := s.oidc.discover(r.Context(), rq.Now)
	if err != nil {
		return "", "", fmt.Errorf("%w: %v", events.ErrUnavailable, err)
	}
	ctx := s.oidc.context(r.Context())
	tok, err := s.oidc.oauth2(p, r, s.secure).Exchange(ctx, code, oauth2.VerifierOption(f.Verifier))
	if err != nil {
		var re *oauth2.RetrieveError
		if !errors.As(err, &re) {
			return "", "", fmt.Errorf("%w: redeeming the code: %v", events.ErrUnavailable, err)
		}
		return "", "", fmt.Errorf("redeeming the code: %w", err)
	}
	raw, _ := tok.Extra("id_token").(string)
	if raw == "" {
		return "", "", errors.New("the token response has no ID token")
	}
	idt, err := s.oidc.verifier(p, s.clock(rq)).Verify(ctx, raw)
	if err != nil {
		return "", "", fmt.Errorf("ID token: %w", err)
	}
	if subtle.ConstantTimeCompare([]byte(idt.Nonce), []byte(f.Nonce)) != 1 {
		return "", "", errors.New("ID token: nonce is not the flow's")
	}
	if idt.Subject == "" {
		return "", "", errors.New("ID token: no subject")
	}
	return idt.Issuer, idt.Subject, nil
}

// oidcAccount finds the account the subject signs in as: the invitation's,
// bound now, when the flow carries one; else the one bound before. The
// aggregate has the last word (the read model may not have seen a reset
// yet): an account no longer bound to the subject is not found.
func (s *Service) oidcAccount(ctx context.Context, f oidcFlow, iss, sub string) (*domain.User, error) {
	owner, err := s.oidc.cfg.Identities.IdentityUser(ctx, iss, sub)
	if err != nil && !errors.Is(err, domain.ErrNotFound) {
		return nil, err
	}
	name := owner
	if f.InviteUser != "" {
		if owner != "" && owner != f.InviteUser {
			return nil, errIdentityTaken
		}
		c := domain.BindIdentity{CommandID: events.NewID(httpx.Now(ctx)), User: f.InviteUser,
			LinkHash: LinkHash(f.InviteToken), Issuer: iss, Subject: sub}
		if _, err := s.oidc.cfg.Binder.BindIdentity(ctx, c); err != nil {
			return nil, err
		}
		name = f.InviteUser
	}
	if name == "" {
		return nil, fmt.Errorf("subject: %w", domain.ErrNotFound)
	}
	u, err := s.users.User(ctx, name)
	if err != nil {
		return nil, err
	}
	if !u.Identity.Is(iss, sub) {
		return nil, fmt.Errorf("subject no longer bound: %w", domain.ErrNotFound)
	}
	return u, nil
}

// openSession signs user in with a fresh session (a new id, whatever cookie
// came in, so an id planted before sign-in never becomes a signed-in one)
// opened with credential, recording how (via).
func (s *Service) openSession(w http.ResponseWriter, r *http.Request, user, credential string, via events.Via) error {
	if old := s.sessions.sessionID(r); old != "" {
		s.endSession(r, old)
	}
	sid, err := s.sessions.reg.issueVia(r.Context(), user, credential, via, httpx.Now(r.Context()))
	if err != nil {
		return err
	}
	return s.sessions.setCookie(w, r, sid)
}

// oidcDeny refuses a sign-in through the provider and logs why (the page
// says only what the person can do about it).
func (s *Service) oidcDeny(w http.ResponseWriter, r *http.Request, status int, msg, why string) {
	s.log.Info("OpenID sign-in refused", "request_id", httpx.RequestID(r.Context()), "client", httpx.FromContext(r.Context()).Client,
		"why", why)
	s.meter.LoginFailed()
	s.oidcRefuse(w, r, status, msg)
}

// trimmed bounds a value from the query before it is logged.
func trimmed(v string) string {
	if len(v) > 64 {
		return v[:64]
	}
	return v
}
