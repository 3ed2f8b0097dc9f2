package auth

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/gorilla/sessions"
)

// SessionLifetime is how long a desk sign-in lasts, at most (and the TTL
// of the shared sessions bucket).
const SessionLifetime = 8 * time.Hour

// CookieName names the session cookie.
const CookieName = "crossrank_session"

const (
	// sessionTTL is how long a sign-in lasts, at most: the cookie's MaxAge,
	// the signature's age limit and the registry's expiry alike.
	sessionTTL = SessionLifetime
	// sessionKeyMin is the shortest session key accepted, in bytes.
	sessionKeyMin = 32
	// sidKey is the session value holding the session id.
	sidKey = "sid"
)

// ParseSessionKeys reads CROSSRANK_SESSION_KEYS: comma-separated keys of at
// least 32 bytes each, written as base64 (standard or URL alphabet, padded
// or not) or hex. The first key signs new cookies; every key verifies, so
// a key is rotated by putting the new one first and dropping the old one
// after a session lifetime (8 hours). An empty string returns no keys.
func ParseSessionKeys(env string) ([][]byte, error) {
	var keys [][]byte
	for i, field := range strings.Split(env, ",") {
		field = strings.TrimSpace(field)
		if field == "" {
			continue
		}
		k, ok := decodeKey(field)
		if !ok || len(k) < sessionKeyMin {
			return nil, fmt.Errorf("session key %d: want base64 or hex of at least %d bytes", i+1, sessionKeyMin)
		}
		keys = append(keys, k)
	}
	return keys, nil
}

func decodeKey(s string) ([]byte, bool) {
	if len(s) >= 2*sessionKeyMin {
		if k, err := hex.DecodeString(s); err == nil { // hex first: hex digits are base64 too
			return k, true
		}
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if k, err := enc.DecodeString(s); err == nil {
			return k, true
		}
	}
	return nil, false
}

// RandomSessionKey returns a fresh 32-byte key, for a server started
// without CROSSRANK_SESSION_KEYS (its sessions end when it stops) and for
// generating a key to configure (base64 it).
func RandomSessionKey() []byte {
	k := make([]byte, sessionKeyMin)
	_, _ = rand.Read(k)
	return k
}

// sessionStore signs session cookies (gorilla/sessions) and keeps the
// server-side registry that decides whether a signed cookie still counts.
// The cookie holds only a random session id.
type sessionStore struct {
	cookies *sessions.CookieStore
	reg     *sessionRegistry
}

func newSessionStore(keys [][]byte, secure bool) (*sessionStore, error) {
	pairs := make([][]byte, 0, 2*len(keys))
	for i, k := range keys {
		if len(k) < sessionKeyMin {
			return nil, fmt.Errorf("auth: session key %d is shorter than %d bytes", i+1, sessionKeyMin)
		}
		// Signed, not encrypted: the cookie holds nothing but a random id.
		pairs = append(pairs, cookieKey(k), nil)
	}
	cs := sessions.NewCookieStore(pairs...)
	cs.Options = &sessions.Options{
		Path: "/", MaxAge: int(sessionTTL / time.Second),
		HttpOnly: true, Secure: secure, SameSite: http.SameSiteLaxMode,
	}
	cs.MaxAge(cs.Options.MaxAge) // also bounds the signature's age
	return &sessionStore{cookies: cs, reg: newSessionRegistry(sessionTTL, 100_000)}, nil
}

// cookieKey derives the HMAC key for cookies from a configured key, so the
// same secret is never used for two purposes.
func cookieKey(k []byte) []byte {
	m := hmac.New(sha256.New, k)
	m.Write([]byte("crossrank session cookie v1"))
	return m.Sum(nil)
}

// sessionID returns the session id in the request's cookie; "" when there
// is no cookie or it does not decode (tampered, signed with a dropped key,
// too old) — which is being signed out, never an error.
func (st *sessionStore) sessionID(r *http.Request) string {
	sess, err := st.cookies.New(r, CookieName)
	if err != nil || sess.IsNew {
		return ""
	}
	sid, _ := sess.Values[sidKey].(string)
	return sid
}

// setCookie writes a fresh session cookie holding sid: a new session, so
// nothing from an earlier cookie carries over.
func (st *sessionStore) setCookie(w http.ResponseWriter, r *http.Request, sid string) error {
	sess := sessions.NewSession(st.cookies, CookieName)
	opts := *st.cookies.Options
	sess.Options = &opts
	sess.Values[sidKey] = sid
	return st.cookies.Save(r, w, sess)
}

// clearCookie tells the browser to drop the session cookie.
func (st *sessionStore) clearCookie(w http.ResponseWriter) {
	opts := *st.cookies.Options
	opts.MaxAge = -1
	http.SetCookie(w, sessions.NewCookie(CookieName, "", &opts))
}
