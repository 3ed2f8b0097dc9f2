package events

// The user aggregate's events: accounts, roles, passwords and API tokens.

// UserRegistered creates an account. PasswordHash is a PHC-format argon2id hash.
type UserRegistered struct {
	Username     string   `json:"username"`
	DisplayName  string   `json:"display_name"`
	PasswordHash string   `json:"password_hash"`
	Roles        []string `json:"roles"`
}

// RoleGranted gives a user a role.
type RoleGranted struct {
	Role string `json:"role"`
}

// RoleRevoked takes a role away.
type RoleRevoked struct {
	Role string `json:"role"`
}

// PasswordChanged replaces a user's password hash.
type PasswordChanged struct {
	PasswordHash string `json:"password_hash"`
	// RevokedTokens are the user's live API tokens a reset by someone
	// else revokes with the password, in one event rather than an atomic
	// batch of TokenRevoked (see Transition). Omitted when empty: a change
	// stored before, whose revocations followed as events of their own,
	// keeps its bytes.
	RevokedTokens []string `json:"revoked_tokens,omitempty"`
}

// TokenIssued creates an API token; only the SHA-256 of its secret is stored.
type TokenIssued struct {
	TokenID   string `json:"token_id"`
	Name      string `json:"name"`
	Hash      string `json:"hash"`
	ExpiresAt string `json:"expires_at,omitempty"` // RFC 3339; empty: no expiry
}

// TokenRevoked disables an API token.
type TokenRevoked struct {
	TokenID string `json:"token_id"`
}

// Invitations and resets. Nobody but its owner ever knows a password: an
// admin adds a user, or resets one, by issuing a one-time link on which the
// person chooses their own. The link's token is 256 random bits; the event
// carries only its SHA-256 (LinkHash) and when it stops working. That hash
// is not a secret — nobody can turn it back into the link — so it lives in
// the log with the account it opens rather than in a bucket beside it: a
// replay, another replica and the audit trail all see the same pending
// invitation, and using or revoking it is an ordinary event on the user.

// UserInvited creates an account that has no password yet: nobody can sign
// in as it, vote with it or hold a token for it until the person accepts
// the invitation (InvitationAccepted).
type UserInvited struct {
	Username    string   `json:"username"`
	DisplayName string   `json:"display_name"`
	Roles       []string `json:"roles"`
	LinkHash    string   `json:"link_hash"`  // hex SHA-256 of the one-time link's token
	ExpiresAt   string   `json:"expires_at"` // RFC 3339
}

// PasswordReset is an admin's reset: the password stops working, every
// session and live API token of the user ends, the private inbox feed token
// is revoked, and a new one-time link lets the person choose a new
// password. One event, so that no reader sees half a reset.
type PasswordReset struct {
	RevokedTokens    []string `json:"revoked_tokens,omitempty"`
	FeedTokenRevoked bool     `json:"feed_token_revoked,omitempty"`
	LinkHash         string   `json:"link_hash"`
	ExpiresAt        string   `json:"expires_at"` // RFC 3339
}

// InvitationAccepted sets the password the invited person chose on the
// link, which is then used up.
type InvitationAccepted struct {
	PasswordHash string `json:"password_hash"`
}

// InvitationRevoked voids a pending link before it is used.
type InvitationRevoked struct{}

// IdentityBound accepts an invitation by signing in with the
// organisation's OpenID Provider instead of choosing a password: from now
// on the account signs in as the provider's subject Subject at issuer
// Issuer (the ID token's iss and sub, which together never change hands;
// an e-mail address can). The link is used up; roles stay Crossrank's.
type IdentityBound struct {
	Issuer  string `json:"issuer"`
	Subject string `json:"subject"`
}
