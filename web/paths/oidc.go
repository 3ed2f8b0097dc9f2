package paths

// Sign-in through the organisation's OpenID Provider: LoginOIDC starts it
// (?next= a path here; or ?user=&token= an invitation's link, which the
// sign-in accepts), LoginOIDCCallback is where the provider sends the
// browser back — the redirect URI to register with the provider.
const (
	LoginOIDC         = "/desk/login/oidc"
	LoginOIDCCallback = "/desk/login/oidc/callback"
)
