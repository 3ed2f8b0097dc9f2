package main

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/crossrank/crossrank/web/auth"
)

// signingIn is how people sign in to the desk: passwords, the
// organisation's OpenID Provider, or both.
type signingIn struct {
	issuer, clientID, clientSecret, secretFile, name string
	// passwords is --password-sign-in: false turns the desk's password
	// form off once a provider is configured. The command line's
	// `crossrank user` keeps working for the operator.
	passwords bool
}

func (s *signingIn) register(set settings) {
	set.str(&s.issuer, "oidc-issuer", "CROSSRANK_OIDC_ISSUER", "",
		"sign in to the desk through this OpenID Provider (its issuer URL); register <public URL>/desk/login/oidc/callback as the redirect URI")
	set.str(&s.clientID, "oidc-client-id", "CROSSRANK_OIDC_CLIENT_ID", "", "the client id registered with the OpenID Provider")
	set.str(&s.clientSecret, "oidc-client-secret", "CROSSRANK_OIDC_CLIENT_SECRET", "", "the client's secret (prefer --oidc-client-secret-file)")
	set.str(&s.secretFile, "oidc-client-secret-file", "CROSSRANK_OIDC_CLIENT_SECRET_FILE", "",
		"read the client's secret from this file (a mounted secret), trailing newline dropped")
	set.str(&s.name, "oidc-name", "CROSSRANK_OIDC_NAME", "", "the provider as the sign-in button names it; empty: the issuer's host")
	s.passwords = true
	set.fs.BoolVar(&s.passwords, "password-sign-in", envBool("CROSSRANK_PASSWORD_SIGN_IN", true),
		withEnv("let people sign in to the desk with a password; false (with --oidc-issuer) leaves the OpenID Provider the only way in", "CROSSRANK_PASSWORD_SIGN_IN"))
}

// envBool reads a true/false twin; unset or unreadable: def.
func envBool(key string, def bool) bool {
	switch strings.ToLower(os.Getenv(key)) {
	case "1", "t", "true", "yes", "on":
		return true
	case "0", "f", "false", "no", "off":
		return false
	}
	return def
}

// config returns the provider's settings for web.Config; nil when none is
// configured. The identities and the command that binds them are wired by
// web.New.
func (s signingIn) config() (*auth.OIDCConfig, error) {
	if s.issuer == "" {
		if s.clientID != "" || s.clientSecret != "" || s.secretFile != "" {
			return nil, errors.New("--oidc-client-id and its secret need --oidc-issuer (CROSSRANK_OIDC_ISSUER)")
		}
		if !s.passwords {
			return nil, errors.New("--password-sign-in=false needs --oidc-issuer: nobody could sign in to the desk")
		}
		return nil, nil
	}
	if s.clientID == "" {
		return nil, errors.New("--oidc-issuer needs --oidc-client-id (CROSSRANK_OIDC_CLIENT_ID)")
	}
	secret := s.clientSecret
	if s.secretFile != "" {
		if secret != "" {
			return nil, errors.New("give --oidc-client-secret or --oidc-client-secret-file, not both")
		}
		b, err := os.ReadFile(s.secretFile)
		if err != nil {
			return nil, fmt.Errorf("--oidc-client-secret-file: %w", err)
		}
		secret = strings.TrimRight(string(b), "\r\n")
	}
	return &auth.OIDCConfig{Issuer: s.issuer, ClientID: s.clientID, ClientSecret: secret, Name: s.name}, nil
}
