-- Which account an OpenID Provider's subject signs in as: the ID token's
-- iss and sub, bound when a person accepts their invitation by signing in
-- with the provider (crossrank.user.identity_bound.v1). A reset of the
-- account drops its row. The key keeps one account per subject.
CREATE TABLE IF NOT EXISTS user_identities (
	issuer   TEXT NOT NULL,
	subject  TEXT NOT NULL,
	username TEXT NOT NULL,
	bound_at TEXT NOT NULL,
	PRIMARY KEY (issuer, subject)
);
CREATE INDEX IF NOT EXISTS user_identities_username ON user_identities(username);
