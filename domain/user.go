package domain

import (
	"maps"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/crossrank/crossrank/events"
)

// Token is an API token of a user; only its hash is kept.
type Token struct {
	ID        string
	Name      string
	Hash      string
	ExpiresAt time.Time // zero: no expiry
	Revoked   bool
}

// User is an account with its roles and API tokens.
type User struct {
	Username      string
	DisplayName   string
	PasswordHash  string
	Roles         []string
	Tokens        map[string]*Token
	InboxReadUpTo uint64 // the inbox is read up to this stream sequence
	FeedTokenHash string // SHA-256 (hex) of the private inbox feed's token; "" : none
	// Invitation is the pending one-time link on which the person chooses
	// their password; nil: none (PasswordHash is then set, or the link was
	// revoked and the account waits for a reset).
	Invitation *Invitation
	// Identity is the OpenID Provider subject the account signs in as;
	// nil: none (it signs in with its password). A reset drops it.
	Identity *Identity
	// Entries are a vendor's own entries, each "ranking/entry"; nil for
	// every other account.
	Entries []string
	Seq     uint64
}

// Exists reports whether the user is registered.
func (u *User) Exists() bool { return u != nil && u.Username != "" }

// Actor returns the user as the actor of a command.
func (u *User) Actor() Actor {
	return Actor{Name: u.Username, Roles: slices.Clone(u.Roles), Entries: slices.Clone(u.Entries)}
}

// Evolve applies one event to the user.
func (u *User) Evolve(e events.Event) {
	if u.Tokens == nil {
		u.Tokens = map[string]*Token{}
	}
	switch d := e.Data.(type) {
	case *events.UserRegistered:
		u.Username, u.DisplayName, u.PasswordHash = d.Username, d.DisplayName, d.PasswordHash
		u.Roles = slices.Clone(d.Roles)
	case *events.UserInvited:
		u.Username, u.DisplayName = d.Username, d.DisplayName
		u.Roles = slices.Clone(d.Roles)
		u.Invitation = invitationOf(d.LinkHash, d.ExpiresAt, false)
	case *events.PasswordReset:
		u.PasswordHash = ""
		for _, id := range d.RevokedTokens {
			u.revokeToken(id)
		}
		if d.FeedTokenRevoked {
			u.FeedTokenHash = ""
		}
		u.Invitation = invitationOf(d.LinkHash, d.ExpiresAt, true)
		u.Identity = nil // whoever the reset locks out keeps no way in, the provider's neither
	case *events.IdentityBound:
		u.Identity, u.Invitation = &Identity{Issuer: d.Issuer, Subject: d.Subject}, nil
	case *events.InvitationAccepted:
		u.PasswordHash, u.Invitation = d.PasswordHash, nil
	case *events.InvitationRevoked:
		u.Invitation = nil
	case *events.RoleGranted:
		if !slices.Contains(u.Roles, d.Role) {
			u.Roles = append(u.Roles, d.Role)
		}
	case *events.RoleRevoked:
		u.Roles = slices.DeleteFunc(u.Roles, func(r string) bool { return r == d.Role })
	case *events.PasswordChanged:
		u.PasswordHash, u.Invitation = d.PasswordHash, nil
		for _, id := range d.RevokedTokens {
			u.revokeToken(id)
		}
	case *events.InboxRead:
		u.InboxReadUpTo = max(u.InboxReadUpTo, d.UpTo)
	case *events.FeedTokenSet:
		u.FeedTokenHash = d.Hash
	case *events.TokenIssued:
		t := &Token{ID: d.TokenID, Name: d.Name, Hash: d.Hash}
		t.ExpiresAt, _ = time.Parse(time.RFC3339, d.ExpiresAt)
		u.Tokens[d.TokenID] = t
	case *events.TokenRevoked:
		u.revokeToken(d.TokenID)
	case *events.VendorEntriesSet:
		u.Entries = slices.Clone(d.Entries)
	}
	u.Seq = e.Sequence
}

func invitationOf(hash, expires string, reset bool) *Invitation {
	at, _ := time.Parse(time.RFC3339, expires) // a malformed time is the zero time: an expired link
	return &Invitation{Hash: hash, ExpiresAt: at, Reset: reset}
}

func (u *User) revokeToken(id string) {
	if t := u.Tokens[id]; t != nil {
		t.Revoked = true
	}
}

var usernameRe = regexp.MustCompile(`^[a-z][a-z0-9_-]{1,31}$`)

// CheckUsername accepts 2–32 of [a-z0-9_-], starting with a letter.
func CheckUsername(name string) error {
	if !usernameRe.MatchString(name) || name == SystemActor {
		return invalid("username", "field.username", nil)
	}
	return nil
}

// RegisterUser creates an account with its password, already hashed: the
// operator's path (crossrank user add --password, the demo seed), where the
// operator is the person. Everyone else is invited (InviteUser).
type RegisterUser struct {
	CommandID    string // the caller's idempotency key: the id of the command's first event
	Username     string
	DisplayName  string
	PasswordHash string
	Roles        []string
	Entries      []string // a vendor's own entries, "ranking/entry"; nil for other roles
}

// DecideRegisterUser lets the command line add a user with a password.
// An admin on the desk or the API may not: the password would be known to
// someone other than its owner, who could then act as them (an admin's
// own reviewers approving, its own publisher publishing).
func DecideRegisterUser(u *User, actor Actor, c RegisterUser) ([]Change, error) {
	if err := actor.require(RoleAdmin); err != nil {
		return nil, err
	}
	if !actor.IsSystem() {
		return nil, ErrPasswordNotOwn
	}
	if err := checkNewUser(u, c.Username, c.DisplayName, c.Roles); err != nil {
		return nil, err
	}
	entries, err := checkVendorRoles(c.Roles, c.Entries)
	if err != nil {
		return nil, err
	}
	if !strings.HasPrefix(c.PasswordHash, "$argon2id$") {
		return nil, invalid("password", "field.argon2id", nil)
	}
	return withVendorScope(one(UserID(c.Username), &events.UserRegistered{Username: c.Username, DisplayName: c.DisplayName,
		PasswordHash: c.PasswordHash, Roles: slices.Compact(slices.Sorted(slices.Values(c.Roles)))}), c.Username, entries), nil
}

// GrantRole gives a user a role.
type GrantRole struct {
	CommandID string // the caller's idempotency key: the id of the command's first event
	User      string
	Role      string
}

// DecideGrantRole lets an admin give a user a role; never themself, so
// one admin cannot make themself a reviewer or publisher unseen.
func DecideGrantRole(u *User, actor Actor, role string) ([]Change, error) {
	if err := actor.require(RoleAdmin); err != nil {
		return nil, err
	}
	if !u.Exists() {
		return nil, ErrUserMissing
	}
	if u.Username == actor.Name {
		return nil, ErrSelfGrant
	}
	if !ValidRole(role) {
		return nil, invalid("role", "field.unknown_role", Args{"role": role})
	}
	if slices.Contains(u.Roles, role) {
		return nil, ErrHasRole
	}
	if err := checkGrantWithVendor(u, role); err != nil {
		return nil, err
	}
	return one(UserID(u.Username), &events.RoleGranted{Role: role}), nil
}

// RevokeRole takes a role away from a user.
type RevokeRole struct {
	CommandID string // the caller's idempotency key: the id of the command's first event
	User      string
	Role      string
}

// DecideRevokeRole lets an admin take a role away. An admin cannot drop
// their own admin role, so the desk never locks itself out by accident.
func DecideRevokeRole(u *User, actor Actor, role string) ([]Change, error) {
	if err := actor.require(RoleAdmin); err != nil {
		return nil, err
	}
	if !u.Exists() {
		return nil, ErrUserMissing
	}
	if !slices.Contains(u.Roles, role) {
		return nil, ErrLacksRole
	}
	if u.Username == actor.Name && role == RoleAdmin {
		return nil, ErrOwnAdminRole
	}
	return one(UserID(u.Username), &events.RoleRevoked{Role: role}), nil
}

// ChangePassword replaces a user's password; the hash arrives already made.
type ChangePassword struct {
	CommandID    string // the caller's idempotency key: the id of the command's first event
	User         string
	PasswordHash string
}

// DecideChangePassword replaces the password hash: the user themself, or
// the operator's command line (crossrank user passwd, where the operator is
// the person). An admin resets a password with ResetPassword instead, and
// never chooses the new one.
//
// A change by the command line also revokes every token of the user, in the
// same command: whoever the reset locks out (a leaked password, someone
// leaving) must not keep using the API either. The revocations are named,
// token by token, in the PasswordChanged (RevokedTokens: one event on the
// user, not an atomic batch; older histories hold a TokenRevoked per token
// after it), rather than a rule that tokens older than a password change
// are void, so the token list, the bearer check and the audit trail read
// them as revocations, and a replay needs no new rule. The
// user's sessions end without an event: a session counts only while it was
// opened with the current password (web/session_registry.go). A user
// changing their own password keeps their tokens.
func DecideChangePassword(u *User, actor Actor, hash string) ([]Change, error) {
	if !u.Exists() {
		return nil, ErrUserMissing
	}
	self := actor.Name != "" && actor.Name == u.Username
	if !self && !actor.IsSystem() {
		if actor.Has(RoleAdmin) {
			return nil, ErrPasswordNotOwn
		}
		return nil, ErrRoleRequired
	}
	if !strings.HasPrefix(hash, "$argon2id$") {
		return nil, invalid("password", "field.argon2id", nil)
	}
	changed := &events.PasswordChanged{PasswordHash: hash}
	if !self {
		for _, id := range slices.Sorted(maps.Keys(u.Tokens)) {
			if !u.Tokens[id].Revoked {
				changed.RevokedTokens = append(changed.RevokedTokens, id)
			}
		}
	}
	return one(UserID(u.Username), changed), nil
}

// IssueToken creates an API token; the secret's hash arrives from the caller.
type IssueToken struct {
	CommandID string // the caller's idempotency key: the id of the command's first event
	User      string // whose token it is
	TokenID   string
	Name      string
	Hash      string
	ExpiresAt time.Time
}

// DecideIssueToken lets a user create a token for themself. Nobody issues
// one for someone else, an admin neither: a token acts as its user, so it
// would let one person cast another's votes. The operator's command line
// may (crossrank token create USER), recorded as the system actor via the
// command line.
func DecideIssueToken(u *User, actor Actor, c IssueToken) ([]Change, error) {
	if !u.Exists() {
		return nil, ErrUserMissing
	}
	if actor.Name == "" || actor.Name != u.Username && !actor.IsSystem() {
		return nil, ErrTokenNotOwn
	}
	if u.Pending() {
		return nil, ErrAccountPending // nobody holds a token for an account its owner has not taken up
	}
	if !events.ValidID(c.TokenID) || len(u.Tokens) >= 100 {
		return nil, invalid("token", "token.bad_id", nil)
	}
	if _, taken := u.Tokens[c.TokenID]; taken {
		// Reusing an id would replace the earlier token, revoked or not.
		return nil, invalid("token", "token.id_used", Args{"id": c.TokenID})
	}
	if err := checkName("name", c.Name, MaxTitle, true); err != nil {
		return nil, err
	}
	if !hexHash.MatchString(c.Hash) {
		return nil, invalid("hash", "field.hex_sha256", nil)
	}
	ti := &events.TokenIssued{TokenID: c.TokenID, Name: c.Name, Hash: c.Hash}
	if !c.ExpiresAt.IsZero() {
		ti.ExpiresAt = c.ExpiresAt.UTC().Format(time.RFC3339)
	}
	return one(UserID(u.Username), ti), nil
}

// RevokeToken disables one of a user's API tokens.
type RevokeToken struct {
	CommandID string // the caller's idempotency key: the id of the command's first event
	User      string
	TokenID   string
}

// DecideRevokeToken disables a token: the user themself or an admin.
func DecideRevokeToken(u *User, actor Actor, tokenID string) ([]Change, error) {
	if !u.Exists() {
		return nil, ErrUserMissing
	}
	if actor.Name == "" || actor.Name != u.Username && !actor.Has(RoleAdmin) {
		return nil, ErrRoleRequired
	}
	t := u.Tokens[tokenID]
	if t == nil || t.Revoked {
		return nil, ErrTokenMissing
	}
	return one(UserID(u.Username), &events.TokenRevoked{TokenID: tokenID}), nil
}
