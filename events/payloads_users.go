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
