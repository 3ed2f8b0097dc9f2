package domain

import (
	"crypto/subtle"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/crossrank/crossrank/events"
)

// InvitationTTL is how long a one-time link stays usable.
const InvitationTTL = 72 * time.Hour

// Invitation is a pending one-time link on which a person chooses their
// password (see events.UserInvited for why its hash lives in the log).
type Invitation struct {
	Hash      string // hex SHA-256 of the link's token
	ExpiresAt time.Time
	Reset     bool // issued by a reset rather than by adding the user
}

// Pending reports whether the account has no way in yet: it was invited
// or reset and the person has neither chosen a password nor signed in
// through the OpenID Provider. Such an account cannot sign in, so it cannot
// vote or publish, and no token is issued for it.
func (u *User) Pending() bool { return u.Exists() && u.PasswordHash == "" && u.Identity == nil }

// InviteUser adds an account without a password and issues its one-time
// link; the link's token is drawn by the caller, who shows it once.
type InviteUser struct {
	CommandID   string // the caller's idempotency key: the id of the command's first event
	Username    string
	DisplayName string
	Roles       []string
	Entries     []string // a vendor's own entries, "ranking/entry"; nil for other roles
	LinkHash    string   // hex SHA-256 of the link's token
}

// DecideInviteUser lets an admin add a user. The admin never learns a
// password: the person chooses it on the link.
func DecideInviteUser(u *User, actor Actor, c InviteUser, now time.Time) ([]Change, error) {
	if err := actor.require(RoleAdmin); err != nil {
		return nil, err
	}
	if err := checkNewUser(u, c.Username, c.DisplayName, c.Roles); err != nil {
		return nil, err
	}
	entries, err := checkVendorRoles(c.Roles, c.Entries)
	if err != nil {
		return nil, err
	}
	if !hexHash.MatchString(c.LinkHash) {
		return nil, invalid("link_hash", "field.hex_sha256", nil)
	}
	return withVendorScope(one(UserID(c.Username), &events.UserInvited{Username: c.Username, DisplayName: c.DisplayName,
		Roles: slices.Compact(slices.Sorted(slices.Values(c.Roles))), LinkHash: c.LinkHash,
		ExpiresAt: now.Add(InvitationTTL).UTC().Format(time.RFC3339)}), c.Username, entries), nil
}

// checkNewUser holds the rules every new account follows, invited or not.
func checkNewUser(u *User, name, display string, roles []string) error {
	if err := CheckUsername(name); err != nil {
		return err
	}
	if u.Exists() {
		return ErrUserExists
	}
	if err := checkName("display_name", display, MaxTitle, false); err != nil {
		return err
	}
	for _, r := range roles {
		if !ValidRole(r) {
			return invalid("roles", "field.unknown_role", Args{"role": r})
		}
	}
	return nil
}

// ResetPassword is an admin's reset of someone else's password.
type ResetPassword struct {
	CommandID string // the caller's idempotency key: the id of the command's first event
	User      string
	LinkHash  string // hex SHA-256 of the new link's token
}

// DecideResetPassword voids the user's password, revokes every live API
// token and the private inbox feed token, and issues a new one-time link:
// whoever the reset locks out (a leaked password, someone leaving) keeps no
// way in, and the admin never sets the new password. The sessions end
// because a session counts only while opened with the current password
// (web/auth). An admin changes their own password on the account page.
func DecideResetPassword(u *User, actor Actor, c ResetPassword, now time.Time) ([]Change, error) {
	if err := actor.require(RoleAdmin); err != nil {
		return nil, err
	}
	if !u.Exists() {
		return nil, ErrUserMissing
	}
	if u.Username == actor.Name {
		return nil, ErrOwnPasswordReset
	}
	if !hexHash.MatchString(c.LinkHash) {
		return nil, invalid("link_hash", "field.hex_sha256", nil)
	}
	reset := &events.PasswordReset{FeedTokenRevoked: u.FeedTokenHash != "", LinkHash: c.LinkHash,
		ExpiresAt: now.Add(InvitationTTL).UTC().Format(time.RFC3339)}
	for _, id := range slices.Sorted(maps.Keys(u.Tokens)) {
		if !u.Tokens[id].Revoked {
			reset.RevokedTokens = append(reset.RevokedTokens, id)
		}
	}
	return one(UserID(u.Username), reset), nil
}

// AcceptInvitation sets the password a person chose on their link.
type AcceptInvitation struct {
	CommandID    string // the caller's idempotency key: the id of the command's first event
	User         string
	LinkHash     string // hex SHA-256 of the token the link carried
	PasswordHash string
}

// DecideAcceptInvitation accepts the link once, before it expires, and only
// the link last issued: a used, revoked, expired or wrong link is refused
// alike, so the answer tells a guesser nothing.
func DecideAcceptInvitation(u *User, c AcceptInvitation, now time.Time) ([]Change, error) {
	if !u.Exists() || u.Invitation == nil ||
		subtle.ConstantTimeCompare([]byte(c.LinkHash), []byte(u.Invitation.Hash)) != 1 ||
		!now.Before(u.Invitation.ExpiresAt) {
		return nil, ErrInvitationInvalid
	}
	if !strings.HasPrefix(c.PasswordHash, "$argon2id$") {
		return nil, invalid("password", "field.argon2id", nil)
	}
	return one(UserID(u.Username), &events.InvitationAccepted{PasswordHash: c.PasswordHash}), nil
}

// InvitationOpen reports whether token's hash opens u's pending link at
// now: the page asking for a password checks before showing its form.
func (u *User) InvitationOpen(linkHash string, now time.Time) bool {
	_, err := DecideAcceptInvitation(u, AcceptInvitation{LinkHash: linkHash, PasswordHash: "$argon2id$"}, now)
	return err == nil
}

// RevokeInvitation voids a user's pending link.
type RevokeInvitation struct {
	CommandID string // the caller's idempotency key: the id of the command's first event
	User      string
}

// DecideRevokeInvitation lets an admin void a pending link (sent to the
// wrong address, say); a reset issues a new one.
func DecideRevokeInvitation(u *User, actor Actor) ([]Change, error) {
	if err := actor.require(RoleAdmin); err != nil {
		return nil, err
	}
	if !u.Exists() {
		return nil, ErrUserMissing
	}
	if u.Invitation == nil {
		return nil, ErrNoInvitation
	}
	return one(UserID(u.Username), &events.InvitationRevoked{}), nil
}
