package auth_test

import (
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/web/paths"
)

// A state replayed with a copy of its flow cookie, a callback without a
// state, and one whose state is not the flow's are refused before the
// provider is asked anything.
func TestOIDCStateRefused(t *testing.T) {
	e := newOIDCEnv(t)
	link := e.invite("nina", domain.RoleReviewer)

	t.Run("replayed", func(t *testing.T) {
		c := e.browser()
		back := e.atProvider(c, welcomeOIDC(t, link), opUser)
		flow := *c.Cookies["crossrank_oidc"]
		if res, body := c.Do(http.MethodGet, back, nil, nil); res.StatusCode != http.StatusSeeOther {
			t.Fatalf("first answer: status %d, %.300s", res.StatusCode, body)
		}
		attacker := e.browser()
		attacker.Cookies[flow.Name] = &flow
		mark := len(e.Logs.String())
		res, body := attacker.Do(http.MethodGet, back, nil, nil)
		refused(t, attacker, res, body, http.StatusBadRequest, "oidc.flow_invalid")
		if !e.logged(mark, "replay") {
			t.Errorf("the replay was refused for another reason: %s", e.Logs.String()[mark:])
		}
	})
	t.Run("missing", func(t *testing.T) {
		c := e.browser()
		back, _ := url.Parse(e.atProvider(c, paths.LoginOIDC, opUser))
		q := back.Query()
		q.Del("state")
		back.RawQuery = q.Encode()
		res, body := c.Do(http.MethodGet, back.RequestURI(), nil, nil)
		refused(t, c, res, body, http.StatusBadRequest, "oidc.flow_invalid")
	})
	t.Run("another flow's", func(t *testing.T) {
		// The answer to one browser's flow, brought to another browser
		// (login CSRF): that browser's flow has another state.
		victim, attacker := e.browser(), e.browser()
		back := e.atProvider(attacker, paths.LoginOIDC, opUser)
		e.atProvider(victim, paths.LoginOIDC, opUser)
		res, body := victim.Do(http.MethodGet, back, nil, nil)
		refused(t, victim, res, body, http.StatusBadRequest, "oidc.flow_invalid")
	})
	t.Run("no flow cookie", func(t *testing.T) {
		c := e.browser()
		back := e.atProvider(c, paths.LoginOIDC, opUser)
		delete(c.Cookies, "crossrank_oidc")
		res, body := c.Do(http.MethodGet, back, nil, nil)
		refused(t, c, res, body, http.StatusBadRequest, "oidc.flow_invalid")
	})
}

// ID tokens that must not count, each served by the provider's real token
// endpoint after the provider issued it: rewritten claims signed with the
// provider's own key, or a well-formed token signed by a key its JWKS does
// not have. None signs anyone in, and the invitation stays open.
func TestOIDCTokenRefused(t *testing.T) {
	e := newOIDCEnv(t)
	link := e.invite("nina", domain.RoleReviewer)
	foreign := newRSAKey(t)
	tests := []struct {
		name   string
		tamper tamper
		why    string // what the log says was wrong
	}{
		{"wrong audience", tamper{claims: func(c map[string]any) { c["aud"] = []string{"another-client"}; c["azp"] = "another-client" }},
			"expected audience"},
		{"expired", tamper{claims: func(c map[string]any) {
			c["iat"], c["exp"] = time.Now().Add(-2*time.Hour).Unix(), time.Now().Add(-time.Hour).Unix()
		}}, "token is expired"},
		{"bad nonce", tamper{claims: func(c map[string]any) { c["nonce"] = "not-the-flows-nonce" }}, "nonce is not the flow's"},
		{"issuer mismatch", tamper{claims: func(c map[string]any) { c["iss"] = "https://evil.example" }}, "issued by a different provider"},
		{"key not in the JWKS", tamper{claims: func(map[string]any) {}, key: foreign, kid: "foreign-key"}, "failed to verify signature"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := e.browser()
			back := e.atProvider(c, welcomeOIDC(t, link), opUser)
			e.op.tamper.Store(&tt.tamper)
			defer e.op.tamper.Store(nil)
			before, mark := e.LastSeq(), len(e.Logs.String())
			res, body := c.Do(http.MethodGet, back, nil, nil)
			refused(t, c, res, body, http.StatusUnauthorized, "oidc.token_invalid")
			if !e.logged(mark, "OpenID sign-in refused", tt.why) {
				t.Errorf("the log does not say %q: %s", tt.why, e.Logs.String()[mark:])
			}
			if after := e.LastSeq(); after != before {
				t.Errorf("a refused token appended %d events", after-before)
			}
		})
	}
	// The same flow untouched signs in: the refusals were the tokens'.
	res, body := e.signIn(e.browser(), welcomeOIDC(t, link), opUser)
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("untampered sign-in: status %d, %.300s", res.StatusCode, body)
	}
}

// The provider rotates its signing key: a token signed by a key the
// client has not seen yet makes it fetch the JWKS again, and counts.
func TestOIDCKeyRotation(t *testing.T) {
	e := newOIDCEnv(t)
	link := e.invite("nina", domain.RoleReviewer)
	if res, body := e.signIn(e.browser(), welcomeOIDC(t, link), opUser); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("first sign-in: status %d, %.300s", res.StatusCode, body)
	}
	key, kid := e.op.rotate()
	e.op.tamper.Store(&tamper{claims: func(map[string]any) {}, key: key, kid: kid})
	c := e.browser()
	res, body := e.signIn(c, paths.LoginOIDC, opUser)
	if res.StatusCode != http.StatusSeeOther || !c.SignedIn() {
		t.Fatalf("sign-in with the rotated key: status %d, %.300s", res.StatusCode, body)
	}
}
