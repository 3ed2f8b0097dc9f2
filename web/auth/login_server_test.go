package auth_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/crossrank/crossrank/web"
	"github.com/crossrank/crossrank/web/auth"
	"github.com/crossrank/crossrank/web/paths"
	"github.com/crossrank/crossrank/web/webtest"
)

func TestLoginSucceeds(t *testing.T) {
	t.Parallel()
	e := webtest.New(t, func(c *web.Config) { c.Secure = true })
	c := e.Client()
	res, _ := c.PostForm("/login", url.Values{"username": {"alice"}, "password": {webtest.Password}, "next": {"/desk/proposals?mine=1"}})
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("status %d, want 303", res.StatusCode)
	}
	if got, want := res.Header.Get("Location"), "/desk/proposals?mine=1"; got != want {
		t.Errorf("Location = %q, want %q", got, want)
	}
	ck := c.Cookies[auth.CookieName]
	if ck == nil {
		t.Fatal("no session cookie")
	}
	if !ck.HttpOnly || !ck.Secure || ck.SameSite != http.SameSiteLaxMode || ck.Path != "/" {
		t.Errorf("cookie flags: HttpOnly=%v Secure=%v SameSite=%v Path=%q", ck.HttpOnly, ck.Secure, ck.SameSite, ck.Path)
	}
	if ck.MaxAge <= 0 || ck.MaxAge > 12*3600 {
		t.Errorf("MaxAge = %d, want 1..12h", ck.MaxAge)
	}
	if !c.SignedIn() {
		t.Error("not signed in after login")
	}
	// The page header shows the user and a sign-out form.
	_, body := c.Do(http.MethodGet, "/login", nil, nil)
	doc, _ := goquery.NewDocumentFromReader(strings.NewReader(body))
	if got := doc.Find(`[data-testid="whoami"]`).Text(); got != "Alice" {
		t.Errorf("whoami = %q, want Alice", got)
	}
	if doc.Find(`form[action="/logout"][method="post"]`).Length() != 1 {
		t.Error("no sign-out form")
	}
}

func TestLoginCookieNotSecureByDefault(t *testing.T) {
	t.Parallel()
	e := webtest.New(t)
	c := e.Client()
	c.Login("bob")
	if c.Cookies[auth.CookieName].Secure {
		t.Error("cookie Secure without Config.Secure")
	}
}

func TestLoginNextStaysOnSite(t *testing.T) {
	t.Parallel()
	e := webtest.New(t)
	for _, next := range []string{"https://evil.example/", "//evil.example/x", "/\\evil.example", "javascript:alert(1)"} {
		c := e.Client()
		res, _ := c.PostForm("/login", url.Values{"username": {"bob"}, "password": {webtest.Password}, "next": {next}})
		if got := res.Header.Get("Location"); got != paths.Desk {
			t.Errorf("next %q: Location = %q, want %q", next, got, paths.Desk)
		}
	}
}

func TestLoginFailureIsGeneric(t *testing.T) {
	t.Parallel()
	e := webtest.New(t)
	message := func(user, pw string) string {
		c := e.Client()
		res, body := c.PostForm("/login", url.Values{"username": {user}, "password": {pw}})
		if res.StatusCode != http.StatusUnauthorized {
			t.Fatalf("%s: status %d, want 401", user, res.StatusCode)
		}
		if c.Cookies[auth.CookieName] != nil {
			t.Fatalf("%s: a failed sign-in set a session cookie", user)
		}
		doc, _ := goquery.NewDocumentFromReader(strings.NewReader(body))
		return strings.TrimSpace(doc.Find(`[data-testid="login-error"]`).Text())
	}
	wrong, unknown := message("alice", "wrong password!"), message("nobody", "wrong password!")
	if wrong == "" || wrong != unknown {
		t.Errorf("messages differ or are empty: wrong password %q, unknown user %q", wrong, unknown)
	}
	if tooLong := message("alice", strings.Repeat("x", auth.MaxPassword+1)); tooLong != wrong {
		t.Errorf("over-long password: %q", tooLong)
	}
}

func TestLoginIssuesFreshSession(t *testing.T) {
	t.Parallel()
	e := webtest.New(t)
	c := e.Client()
	c.Login("alice")
	planted := *c.Cookies[auth.CookieName]

	c.Login("alice") // signs in again, sending the old cookie
	old := e.Client()
	old.Cookies[auth.CookieName] = &planted
	if old.SignedIn() {
		t.Error("the session from before sign-in still counts")
	}
	if !c.SignedIn() {
		t.Error("the new session does not count")
	}
}

func TestLogoutEndsSessionServerSide(t *testing.T) {
	t.Parallel()
	e := webtest.New(t)
	c := e.Client()
	c.Login("bob")
	copied := *c.Cookies[auth.CookieName]

	res, _ := c.PostForm("/logout", url.Values{})
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("logout status %d", res.StatusCode)
	}
	if c.Cookies[auth.CookieName] != nil {
		t.Error("logout did not clear the cookie")
	}
	thief := e.Client()
	thief.Cookies[auth.CookieName] = &copied
	if thief.SignedIn() {
		t.Error("a copy of the cookie still works after logout")
	}
}

func TestLogoutNeedsPost(t *testing.T) {
	t.Parallel()
	e := webtest.New(t)
	c := e.Client()
	c.Login("bob")
	c.Do(http.MethodGet, "/logout", nil, nil)
	if !c.SignedIn() {
		t.Error("GET /logout signed the user out")
	}
}

func TestTamperedCookieIsSignedOut(t *testing.T) {
	t.Parallel()
	e := webtest.New(t)
	c := e.Client()
	c.Login("carol")
	ck := c.Cookies[auth.CookieName]
	v := []byte(ck.Value)
	v[len(v)/2] ^= 0x01
	for _, value := range []string{string(v), "garbage", strings.Repeat("A", 5000), ""} {
		c.Cookies[auth.CookieName] = &http.Cookie{Name: auth.CookieName, Value: value}
		res, _ := c.Do(http.MethodGet, "/login", nil, nil)
		if res.StatusCode != http.StatusOK {
			t.Errorf("cookie %.20q: GET /login status %d, want 200", value, res.StatusCode)
		}
		c.Cookies[auth.CookieName] = &http.Cookie{Name: auth.CookieName, Value: value}
		if c.SignedIn() {
			t.Errorf("cookie %.20q counts as signed in", value)
		}
	}
}

func TestSessionExpires(t *testing.T) {
	t.Parallel()
	now := time.Now()
	clock := func() time.Time { return now }
	e := webtest.New(t, func(c *web.Config) { c.Now = clock })
	c := e.Client()
	c.Login("pat")
	now = now.Add(auth.SessionLifetime + time.Minute)
	if c.SignedIn() {
		t.Error("session outlived its lifetime")
	}
}
