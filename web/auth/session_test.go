package auth

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gorilla/securecookie"
)

// cookieFor encodes a session id the way the server does, signed with keys.
func cookieFor(t *testing.T, sid string, keys ...[]byte) *http.Cookie {
	t.Helper()
	st, err := newSessionStore(keys, false)
	if err != nil {
		t.Fatal(err)
	}
	v, err := securecookie.EncodeMulti(CookieName, map[any]any{sidKey: sid}, st.cookies.Codecs...)
	if err != nil {
		t.Fatal(err)
	}
	return &http.Cookie{Name: CookieName, Value: v}
}

// withCookie is a request carrying ck.
func withCookie(ck *http.Cookie) *http.Request {
	r := httptest.NewRequest(http.MethodGet, "/", nil)
	r.AddCookie(ck)
	return r
}

func TestSessionKeyRotation(t *testing.T) {
	oldKey, newKey := []byte(strings.Repeat("o", 32)), []byte(strings.Repeat("n", 32))
	st, err := newSessionStore([][]byte{newKey, oldKey}, false)
	if err != nil {
		t.Fatal(err)
	}
	if got := st.sessionID(withCookie(cookieFor(t, "s1", oldKey))); got != "s1" {
		t.Errorf("a cookie signed with the second (old) key is refused (%q)", got)
	}
	if got := st.sessionID(withCookie(cookieFor(t, "s1", []byte(strings.Repeat("x", 32))))); got != "" {
		t.Errorf("a cookie signed with a key no longer listed counts (%q)", got)
	}

	// New cookies are signed with the first key only.
	rec := httptest.NewRecorder()
	if err := st.setCookie(rec, httptest.NewRequest(http.MethodPost, "/login", nil), "s2"); err != nil {
		t.Fatal(err)
	}
	r := withCookie(rec.Result().Cookies()[0])
	onlyNew, _ := newSessionStore([][]byte{newKey}, false)
	if onlyNew.sessionID(r) != "s2" {
		t.Error("a new cookie does not verify with the first key")
	}
	onlyOld, _ := newSessionStore([][]byte{oldKey}, false)
	if onlyOld.sessionID(r) != "" {
		t.Error("a new cookie verifies with the old key")
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
