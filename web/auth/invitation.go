package auth

import (
	"crypto/rand"
	"encoding/base64"
	"net/url"
	"strings"

	"github.com/crossrank/crossrank/web/paths"
)

// NewLinkToken draws the token of a one-time link (an invitation or a
// reset): 256 random bits, base64url. Only LinkHash(token) is recorded; the
// token itself is shown once, to the admin or operator who passes it on.
func NewLinkToken() (token, hash string) {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	token = base64.RawURLEncoding.EncodeToString(b)
	return token, LinkHash(token)
}

// LinkHash returns the hex SHA-256 of a link token, as recorded.
func LinkHash(token string) string { return TokenHash(token) }

// WelcomeURL is the one-time link for user with token, on the site at
// origin ("https://rank.example"; "" for a path on this site). The token
// rides in the query, which the request log leaves out (it logs the path).
func WelcomeURL(origin, user, token string) string {
	return strings.TrimSuffix(origin, "/") + paths.Welcome + "?" + url.Values{"user": {user}, "token": {token}}.Encode()
}
