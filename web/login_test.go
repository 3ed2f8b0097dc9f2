package web

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/gorilla/securecookie"
)

func TestLoginSucceeds(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.Secure = true })
	c := e.client()
	res, _ := c.postForm("/login", url.Values{"username": {"alice"}, "password": {testPassword}, "next": {"/desk/proposals?mine=1"}})
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("status %d, want 303", res.StatusCode)
	}
	if got, want := res.Header.Get("Location"), "/desk/proposals?mine=1"; got != want {
		t.Errorf("Location = %q, want %q", got, want)
	}
	ck := c.cookies[sessionCookie]
	if ck == nil {
		t.Fatal("no session cookie")
	}
	if !ck.HttpOnly || !ck.Secure || ck.SameSite != http.SameSiteLaxMode || ck.Path != "/" {
		t.Errorf("cookie flags: HttpOnly=%v Secure=%v SameSite=%v Path=%q", ck.HttpOnly, ck.Secure, ck.SameSite, ck.Path)
	}
	if ck.MaxAge <= 0 || ck.MaxAge > 12*3600 {
		t.Errorf("MaxAge = %d, want 1..12h", ck.MaxAge)
	}
	if !c.signedIn() {
		t.Error("not signed in after login")
	}
	// The page header shows the user and a sign-out form.
	_, body := c.do(http.MethodGet, "/login", nil, nil)
	doc, _ := goquery.NewDocumentFromReader(strings.NewReader(body))
	if got := doc.Find(`[data-testid="whoami"]`).Text(); got != "Alice" {
		t.Errorf("whoami = %q, want Alice", got)
	}
	if doc.Find(`form[action="/logout"][method="post"]`).Length() != 1 {
		t.Error("no sign-out form")
	}
}

func TestLoginCookieNotSecureByDefault(t *testing.T) {
	e := newEnv(t)
	c := e.client()
	c.login("bob")
	if c.cookies[sessionCookie].Secure {
		t.Error("cookie Secure without Config.Secure")
	}
}

func TestLoginNextStaysOnSite(t *testing.T) {
	e := newEnv(t)
	for _, next := range []string{"https://evil.example/", "//evil.example/x", "/\\evil.example", "javascript:alert(1)"} {
		c := e.client()
		res, _ := c.postForm("/login", url.Values{"username": {"bob"}, "password": {testPassword}, "next": {next}})
		if got := res.Header.Get("Location"); got != pathDesk {
			t.Errorf("next %q: Location = %q, want %q", next, got, pathDesk)
		}
	}
}

func TestLoginFailureIsGeneric(t *testing.T) {
	e := newEnv(t)
	message := func(user, pw string) string {
		c := e.client()
		res, body := c.postForm("/login", url.Values{"username": {user}, "password": {pw}})
		if res.StatusCode != http.StatusUnauthorized {
			t.Fatalf("%s: status %d, want 401", user, res.StatusCode)
		}
		if c.cookies[sessionCookie] != nil {
			t.Fatalf("%s: a failed sign-in set a session cookie", user)
		}
		doc, _ := goquery.NewDocumentFromReader(strings.NewReader(body))
		return strings.TrimSpace(doc.Find(`[data-testid="login-error"]`).Text())
	}
	wrong, unknown := message("alice", "wrong password!"), message("nobody", "wrong password!")
	if wrong == "" || wrong != unknown {
		t.Errorf("messages differ or are empty: wrong password %q, unknown user %q", wrong, unknown)
	}
	if tooLong := message("alice", strings.Repeat("x", MaxPassword+1)); tooLong != wrong {
		t.Errorf("over-long password: %q", tooLong)
	}
}

// sid reads the session id out of a client's cookie.
func sid(t *testing.T, s *Server, c *client) string {
	t.Helper()
	ck := c.cookies[sessionCookie]
	if ck == nil {
		t.Fatal("no session cookie")
	}
	r, _ := http.NewRequest(http.MethodGet, "/", nil)
	r.AddCookie(ck)
	id := s.sessions.sessionID(r)
	if id == "" {
		t.Fatal("session cookie does not decode")
	}
	return id
}

func TestLoginIssuesFreshSession(t *testing.T) {
	e := newEnv(t)
	c := e.client()
	c.login("alice")
	first := sid(t, e.srv, c)
	planted := *c.cookies[sessionCookie]

	c.login("alice") // signs in again, sending the old cookie
	if second := sid(t, e.srv, c); second == first {
		t.Fatal("session id unchanged by sign-in (session fixation)")
	}
	old := e.client()
	old.cookies[sessionCookie] = &planted
	if old.signedIn() {
		t.Error("the session from before sign-in still counts")
	}
	if !c.signedIn() {
		t.Error("the new session does not count")
	}
}

func TestLogoutEndsSessionServerSide(t *testing.T) {
	e := newEnv(t)
	c := e.client()
	c.login("bob")
	copied := *c.cookies[sessionCookie]

	res, _ := c.postForm("/logout", url.Values{})
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("logout status %d", res.StatusCode)
	}
	if c.cookies[sessionCookie] != nil {
		t.Error("logout did not clear the cookie")
	}
	thief := e.client()
	thief.cookies[sessionCookie] = &copied
	if thief.signedIn() {
		t.Error("a copy of the cookie still works after logout")
	}
}

func TestLogoutNeedsPost(t *testing.T) {
	e := newEnv(t)
	c := e.client()
	c.login("bob")
	c.do(http.MethodGet, "/logout", nil, nil)
	if !c.signedIn() {
		t.Error("GET /logout signed the user out")
	}
}

func TestTamperedCookieIsSignedOut(t *testing.T) {
	e := newEnv(t)
	c := e.client()
	c.login("carol")
	ck := c.cookies[sessionCookie]
	v := []byte(ck.Value)
	v[len(v)/2] ^= 0x01
	for _, value := range []string{string(v), "garbage", strings.Repeat("A", 5000), ""} {
		c.cookies[sessionCookie] = &http.Cookie{Name: sessionCookie, Value: value}
		res, _ := c.do(http.MethodGet, "/login", nil, nil)
		if res.StatusCode != http.StatusOK {
			t.Errorf("cookie %.20q: GET /login status %d, want 200", value, res.StatusCode)
		}
		c.cookies[sessionCookie] = &http.Cookie{Name: sessionCookie, Value: value}
		if c.signedIn() {
			t.Errorf("cookie %.20q counts as signed in", value)
		}
	}
}

// cookieFor encodes a session id the way the server does, signed with keys.
func cookieFor(t *testing.T, sid string, keys ...[]byte) *http.Cookie {
	t.Helper()
	st, err := newSessionStore(keys, false)
	if err != nil {
		t.Fatal(err)
	}
	v, err := securecookie.EncodeMulti(sessionCookie, map[any]any{sidKey: sid}, st.cookies.Codecs...)
	if err != nil {
		t.Fatal(err)
	}
	return &http.Cookie{Name: sessionCookie, Value: v}
}

func TestSessionKeyRotation(t *testing.T) {
	oldKey, newKey := []byte(strings.Repeat("o", 32)), []byte(strings.Repeat("n", 32))
	e := newEnv(t, func(c *Config) { c.SessionKeys = [][]byte{newKey, oldKey} })
	alice, err := e.cmd.User(context.Background(), "alice")
	if err != nil {
		t.Fatal(err)
	}
	id, err := e.srv.sessions.reg.issue(context.Background(), "alice", alice.PasswordHash, time.Now())
	if err != nil {
		t.Fatal(err)
	}

	c := e.client()
	c.cookies[sessionCookie] = cookieFor(t, id, oldKey)
	if !c.signedIn() {
		t.Error("a cookie signed with the second (old) key is refused")
	}
	c.cookies[sessionCookie] = cookieFor(t, id, []byte(strings.Repeat("x", 32)))
	if c.signedIn() {
		t.Error("a cookie signed with a key no longer listed counts")
	}

	// New cookies are signed with the first key only.
	c = e.client()
	c.login("alice")
	r, _ := http.NewRequest(http.MethodGet, "/", nil)
	r.AddCookie(c.cookies[sessionCookie])
	onlyNew, _ := newSessionStore([][]byte{newKey}, false)
	if onlyNew.sessionID(r) == "" {
		t.Error("a new cookie does not verify with the first key")
	}
	onlyOld, _ := newSessionStore([][]byte{oldKey}, false)
	if onlyOld.sessionID(r) != "" {
		t.Error("a new cookie verifies with the old key")
	}
}

func TestSessionExpires(t *testing.T) {
	now := time.Now()
	clock := func() time.Time { return now }
	e := newEnv(t, func(c *Config) { c.Now = clock })
	c := e.client()
	c.login("pat")
	now = now.Add(sessionTTL + time.Minute)
	if c.signedIn() {
		t.Error("session outlived its lifetime")
	}
}

func TestParseSessionKeys(t *testing.T) {
	key := strings.Repeat("ab", 32) // hex, 32 bytes
	b64 := "c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LXNlY3JldC0xMjM0NTY3OA=="
	keys, err := ParseSessionKeys(key + " , " + b64)
	if err != nil || len(keys) != 2 || len(keys[0]) != 32 || string(keys[1][:7]) != "secret-" {
		t.Fatalf("ParseSessionKeys = %v, %v", keys, err)
	}
	if keys, err := ParseSessionKeys(""); err != nil || len(keys) != 0 {
		t.Errorf(`ParseSessionKeys("") = %v, %v`, keys, err)
	}
	if _, err := ParseSessionKeys("short"); err == nil {
		t.Error("a short key was accepted")
	}
}
