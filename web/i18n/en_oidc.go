package i18n

// enOIDC holds the English words of signing in through the organisation's
// OpenID Provider.
var enOIDC = map[string]string{
	"oidc.button":                    "Sign in with %s",
	"oidc.welcome_intro":             "Or sign in with %s: your account here is then bound to your account there, and you sign in with it from now on.",
	"oidc.refused_title":             "Not signed in",
	"oidc.back":                      "Back to sign-in",
	"oidc.off":                       "Signing in through an identity provider is not configured on this server.",
	"oidc.unavailable":               "%s cannot be reached right now, so nobody can sign in through it. Try again shortly.",
	"oidc.flow_invalid":              "This sign-in was not started in this browser, was already used, or took too long. Start again from the sign-in page.",
	"oidc.provider_refused":          "%s did not sign you in. Start again from the sign-in page.",
	"oidc.token_invalid":             "The answer from %s could not be verified, so nobody was signed in. Start again; if it happens again, tell an admin.",
	"oidc.unknown":                   "You signed in at %s, but no account here is yours. Ask an admin for an invitation, then sign in from its link.",
	"oidc.taken":                     "Your account at %s already signs in as another account here. Ask an admin.",
	"login.passwords_off":            "Signing in with a password is turned off on this server. Sign in with %s.",
	"audit.via.oidc":                 "via %s (OpenID Connect)",
	"audit.msg.identity_bound":       "Accepted the invitation by signing in at {issuer}",
	"audit.type.user.identity_bound": "Signed in with the identity provider on a one-time link",
}
