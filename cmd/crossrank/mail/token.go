package mail

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"strings"

	"github.com/crossrank/crossrank/web/notify"
)

// An unsubscribe token names a user and a kind (or notify.DigestKind),
// signed under the bucket's secret: base64url(user "." kind) "." mac. It
// never expires, as a mail's header cannot change once sent.

func unsubscribeToken(secret []byte, user, kind string) string {
	payload := user + "." + kind
	return base64.RawURLEncoding.EncodeToString([]byte(payload)) + "." + base64.RawURLEncoding.EncodeToString(unsubscribeMAC(secret, payload))
}

func unsubscribeMAC(secret []byte, payload string) []byte {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("crossrank unsubscribe\x00" + payload))
	return m.Sum(nil)[:18]
}

// parseUnsubscribe returns the user and kind a token names.
func parseUnsubscribe(secret []byte, token string) (user, kind string, err error) {
	p, m, ok := strings.Cut(token, ".")
	if !ok {
		return "", "", notify.ErrBadToken
	}
	payload, err1 := base64.RawURLEncoding.DecodeString(p)
	mac, err2 := base64.RawURLEncoding.DecodeString(m)
	if err1 != nil || err2 != nil || !hmac.Equal(mac, unsubscribeMAC(secret, string(payload))) {
		return "", "", notify.ErrBadToken
	}
	user, kind, ok = strings.Cut(string(payload), ".")
	if !ok {
		return "", "", notify.ErrBadToken
	}
	return user, kind, nil
}

// unsubscribeURL is the one-click address of a token.
func (c Composer) unsubscribeURL(token string) string {
	return c.PublicURL + "/mail/unsubscribe?token=" + token
}
