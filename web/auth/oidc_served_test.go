package auth_test

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/web"
	"github.com/crossrank/crossrank/web/auth"
	"github.com/crossrank/crossrank/web/paths"
	"github.com/crossrank/crossrank/web/webtest"
)

// An invited person accepts the invitation by signing in with the
// organisation's provider: the account is bound to the provider's iss+sub,
// keeps the roles the admin gave, and every event of the session — the
// binding first — records that it came through the provider. The next
// sign-in needs no link.
func TestOIDCInvitationBindsAndSignsIn(t *testing.T) {
	e := newOIDCEnv(t)
	link := e.invite("nina", domain.RoleReviewer, domain.RoleEditor)

	// The welcome page offers the provider beside the password form.
	c := e.browser()
	res, body := c.Do(http.MethodGet, link, nil, nil)
	if res.StatusCode != http.StatusOK || webtest.ByTestID(webtest.Doc(t, body), "welcome-oidc").Length() != 1 {
		t.Fatalf("welcome page: status %d, no provider button", res.StatusCode)
	}
	res, body = e.signIn(c, welcomeOIDC(t, link), opUser)
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != paths.Desk {
		t.Fatalf("callback: status %d, Location %q, body %.400s", res.StatusCode, res.Header.Get("Location"), body)
	}
	if !c.SignedIn() {
		t.Fatal("not signed in after the provider's sign-in")
	}
	u, err := e.Cmd.User(e.Ctx, "nina")
	if err != nil {
		t.Fatal(err)
	}
	if !u.Identity.Is(e.op.issuer, "id1") || u.Pending() || u.PasswordHash != "" {
		t.Errorf("account after binding: identity %+v, pending %v", u.Identity, u.Pending())
	}
	if got, want := slices.Sorted(slices.Values(u.Roles)), []string{domain.RoleEditor, domain.RoleReviewer}; !slices.Equal(got, want) {
		t.Errorf("roles %v, want the invited %v", got, want)
	}
	if res, _ := c.Do(http.MethodGet, paths.Desk, nil, nil); res.StatusCode != http.StatusOK {
		t.Errorf("desk: status %d", res.StatusCode)
	}
	// An event the signed-in person causes records the provider too.
	if res, body := c.PostForm(paths.Inbox+"/feed", url.Values{}); res.StatusCode >= 400 {
		t.Fatalf("feed token: status %d, %.300s", res.StatusCode, body)
	}
	e.CaughtUp()
	rows, err := e.Read.DB().QueryContext(e.Ctx, `SELECT type, authvia FROM audit WHERE actor='nina' ORDER BY seq`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var types []string
	for rows.Next() {
		var typ, via string
		if err := rows.Scan(&typ, &via); err != nil {
			t.Fatal(err)
		}
		types = append(types, typ)
		if want := "oidc;iss=" + url.QueryEscape(e.op.issuer); via != want {
			t.Errorf("%s: authvia %q, want %q", typ, via, want)
		}
	}
	if len(types) < 2 || types[0] != "crossrank.user.identity_bound.v1" {
		t.Errorf("nina's events %v: want the binding, then the feed token", types)
	}
	if owner, err := e.Read.IdentityUser(e.Ctx, e.op.issuer, "id1"); err != nil || owner != "nina" {
		t.Errorf("IdentityUser = %q, %v", owner, err)
	}

	// Signed out, the person signs in again through the provider alone,
	// and comes back to where they were going (a path here).
	c.PostForm(paths.Logout, nil)
	again := e.browser()
	res, body = e.signIn(again, paths.LoginOIDC+"?next="+url.QueryEscape("/desk/inbox?x=1"), opUser)
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/desk/inbox?x=1" || !again.SignedIn() {
		t.Fatalf("second sign-in: status %d, Location %q, body %.300s", res.StatusCode, res.Header.Get("Location"), body)
	}
	// The link is used up: choosing a password on it now fails.
	if status, _ := webtest.Accept(t, e.browser(), link, "a fresh password 123"); status != http.StatusNotFound {
		t.Errorf("the used link still opens: status %d", status)
	}
}

// A subject no account is bound to gets the page asking for an invitation
// (in the reader's language), no account and no session.
func TestOIDCUnknownSubjectRefused(t *testing.T) {
	e := newOIDCEnv(t)
	for _, lang := range []struct{ accept, want string }{{"en", "Ask an admin for an invitation"}, {"zh-CN", "请向管理员索取邀请"}} {
		c := e.browser()
		c.Header.Set("Accept-Language", lang.accept)
		before := e.LastSeq()
		res, body := e.signIn(c, paths.LoginOIDC, opOtherUser)
		refused(t, c, res, body, http.StatusForbidden, "oidc.unknown")
		if !strings.Contains(body, lang.want) {
			t.Errorf("%s: the page does not say %q", lang.accept, lang.want)
		}
		if after := e.LastSeq(); after != before {
			t.Errorf("an unknown subject appended %d events", after-before)
		}
	}
}

// --password-sign-in=false: the sign-in page shows only the provider, a
// password POST is refused with a clear error (for every account alike),
// and a link is accepted through the provider only.
func TestOIDCPasswordsOff(t *testing.T) {
	e := newOIDCEnv(t)
	link := e.invite("nina", domain.RoleReviewer)
	off, err := web.New(web.Config{Commands: e.Cmd, Read: e.Read, SessionKeys: [][]byte{make([]byte, 32)}, NoPasswords: true,
		OIDC: &auth.OIDCConfig{Issuer: e.op.issuer, ClientID: oidcClientID, ClientSecret: oidcSecret, Name: "Newsroom ID"}})
	if err != nil {
		t.Fatal(err)
	}
	c := &webtest.Client{T: t, H: off.Handler(), Cookies: map[string]*http.Cookie{}, Header: http.Header{}, Peer: "203.0.113.7:1"}
	_, body := c.Do(http.MethodGet, paths.Login, nil, nil)
	doc := webtest.Doc(t, body)
	if webtest.ByTestID(doc, "login-form").Length() != 0 || webtest.ByTestID(doc, "login-oidc").Length() != 1 {
		t.Errorf("sign-in page: password form shown %v, provider button %v", webtest.ByTestID(doc, "login-form").Length(), webtest.ByTestID(doc, "login-oidc").Length())
	}
	res, body := c.PostForm(paths.Login, url.Values{"username": {"ada"}, "password": {webtest.Password}})
	if res.StatusCode != http.StatusForbidden || !strings.Contains(body, "Sign in with Newsroom ID") || c.Cookies[auth.CookieName] != nil {
		t.Errorf("password POST: status %d, body %.300s", res.StatusCode, webtest.ByTestID(webtest.Doc(t, body), "login-error").Text())
	}
	_, body = c.Do(http.MethodGet, link, nil, nil)
	doc = webtest.Doc(t, body)
	if webtest.ByTestID(doc, "welcome-form").Length() != 0 || webtest.ByTestID(doc, "welcome-oidc").Length() != 1 {
		t.Errorf("welcome page: password form shown, or no provider button")
	}
	u, _ := url.Parse(link)
	form := u.Query()
	form.Set("password", "a fresh password 123")
	form.Set("confirm_password", "a fresh password 123")
	if res, _ := c.PostForm(paths.Welcome, form); res.StatusCode != http.StatusForbidden {
		t.Errorf("password on the link: status %d, want 403", res.StatusCode)
	}
	if _, err := web.New(web.Config{Commands: e.Cmd, NoPasswords: true}); err == nil {
		t.Error("passwords turned off without a provider: no error")
	}
}

// A next that leaves the site sends the person to the desk instead.
func TestOIDCNextStaysLocal(t *testing.T) {
	e := newOIDCEnv(t)
	link := e.invite("nina", domain.RoleReviewer)
	e.signIn(e.browser(), welcomeOIDC(t, link), opUser)
	e.CaughtUp()
	for _, next := range []string{"//evil.example/x", "https://evil.example/", "/\\evil.example"} {
		res, _ := e.signIn(e.browser(), paths.LoginOIDC+"?next="+url.QueryEscape(next), opUser)
		if loc := res.Header.Get("Location"); loc != paths.Desk {
			t.Errorf("next %q: Location %q, want %s", next, loc, paths.Desk)
		}
	}
}

// A reset drops the binding: the session opened through the provider ends
// at once, the provider's subject no longer signs in, and the reset's new
// link binds again.
func TestOIDCResetDropsBinding(t *testing.T) {
	e := newOIDCEnv(t)
	link := e.invite("nina", domain.RoleReviewer)
	c := e.browser()
	if res, body := e.signIn(c, welcomeOIDC(t, link), opUser); res.StatusCode != http.StatusSeeOther || !c.SignedIn() {
		t.Fatalf("sign-in: status %d, %.300s", res.StatusCode, body)
	}
	ada, err := e.Cmd.User(e.Ctx, "ada")
	if err != nil {
		t.Fatal(err)
	}
	token, hash := auth.NewLinkToken()
	if _, err := e.Cmd.ResetPassword(e.Ctx, ada.Actor(), domain.ResetPassword{User: "nina", LinkHash: hash}); err != nil {
		t.Fatal(err)
	}
	e.CaughtUp()
	if c.SignedIn() {
		t.Error("the session opened through the provider outlived the reset")
	}
	res, body := e.signIn(e.browser(), paths.LoginOIDC, opUser)
	refused(t, e.browser(), res, body, http.StatusForbidden, "oidc.unknown")
	again := e.browser()
	if res, body := e.signIn(again, welcomeOIDC(t, auth.WelcomeURL("", "nina", token)), opUser); res.StatusCode != http.StatusSeeOther || !again.SignedIn() {
		t.Fatalf("the reset's link: status %d, %.300s", res.StatusCode, body)
	}
}

// Signing in through the provider gives a new session id, whatever cookie
// the browser came with: the session it had before ends (no fixation).
func TestOIDCRotatesSession(t *testing.T) {
	e := newOIDCEnv(t)
	link := e.invite("nina", domain.RoleReviewer)
	c := e.browser()
	c.Login("ada")
	before := *c.Cookies[auth.CookieName]
	if res, body := e.signIn(c, welcomeOIDC(t, link), opUser); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("sign-in: status %d, %.300s", res.StatusCode, body)
	}
	if after := c.Cookies[auth.CookieName]; after == nil || after.Value == before.Value {
		t.Fatal("the session cookie was not replaced")
	}
	old := e.browser()
	old.Cookies[before.Name] = &before
	if old.SignedIn() {
		t.Error("the session from before the sign-in still counts")
	}
}
