package domain

import (
	"crypto/subtle"
	"time"

	"github.com/crossrank/crossrank/events"
)

// MaxIdentityPart bounds an issuer URL or a subject: OpenID Connect caps
// sub at 255 ASCII characters, and an issuer is a short URL.
const MaxIdentityPart = 255

// Identity is the account's binding to a subject of the organisation's
// OpenID Provider: the ID token's iss and sub, which together name one
// person for as long as the provider exists. An e-mail address is never
// used: it can change hands.
type Identity struct {
	Issuer  string
	Subject string
}

// Is reports whether the identity is the subject sub at issuer iss.
func (id *Identity) Is(iss, sub string) bool {
	return id != nil && subtle.ConstantTimeCompare([]byte(id.Issuer), []byte(iss)) == 1 &&
		subtle.ConstantTimeCompare([]byte(id.Subject), []byte(sub)) == 1
}

// BindIdentity accepts an invitation by signing in with the OpenID
// Provider: the person proved who they are there, and the link proves
// which account is theirs.
type BindIdentity struct {
	CommandID string // the caller's idempotency key: the id of the command's first event
	User      string
	LinkHash  string // hex SHA-256 of the token the link carried
	Issuer    string // the verified ID token's iss
	Subject   string // the verified ID token's sub
}

// DecideBindIdentity binds the account to the provider's subject, once,
// on the link last issued and before it expires — the same rules as
// choosing a password on it (DecideAcceptInvitation). Roles stay as the
// invitation gave them: signing in proves identity, never grants a right.
// Whether the subject already signs in as another account is a question
// across accounts, asked by the caller of the read model before.
func DecideBindIdentity(u *User, c BindIdentity, now time.Time) ([]Change, error) {
	if !u.InvitationOpen(c.LinkHash, now) {
		return nil, ErrInvitationInvalid
	}
	for _, f := range [...]struct{ name, value string }{{"issuer", c.Issuer}, {"subject", c.Subject}} {
		if f.value == "" {
			return nil, invalid(f.name, "field.required", nil)
		}
		if len(f.value) > MaxIdentityPart {
			return nil, invalid(f.name, "field.too_long", Args{"length": len(f.value), "limit": MaxIdentityPart})
		}
	}
	return one(UserID(u.Username), &events.IdentityBound{Issuer: c.Issuer, Subject: c.Subject}), nil
}

// OIDCActor is the person signing in as user through the provider at
// issuer: the actor of the binding, and how every later event of the
// session says it signed in.
func OIDCActor(user, issuer string) Actor {
	return Actor{Name: user, Via: events.Via{Method: events.ViaOIDC, Issuer: issuer}}
}
