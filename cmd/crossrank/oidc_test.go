package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOIDCSettings: the provider's settings come from flags or their env
// twins, the secret also from a file; settings that cannot work (a client
// without an issuer, passwords off with no provider, two secrets) are
// refused at start with the flag named. Sequential: it sets the
// environment.
func TestOIDCSettings(t *testing.T) {
	secret := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(secret, []byte("s3cret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("CROSSRANK_OIDC_CLIENT_ID", "desk")
	t.Setenv("CROSSRANK_PASSWORD_SIGN_IN", "false")
	c, err := parseServe([]string{"--oidc-issuer", "https://id.example.org/realms/news", "--oidc-client-secret-file", secret})
	if err != nil {
		t.Fatal(err)
	}
	o, err := c.signIn.config()
	if err != nil || o == nil || o.Issuer != "https://id.example.org/realms/news" || o.ClientID != "desk" || o.ClientSecret != "s3cret" {
		t.Fatalf("config = %+v, %v", o, err)
	}
	if c.signIn.passwords {
		t.Error("CROSSRANK_PASSWORD_SIGN_IN=false left passwords on")
	}
	c, _ = parseServe([]string{"--password-sign-in=true"})
	if !c.signIn.passwords {
		t.Error("the flag did not override its twin")
	}

	for _, tc := range []struct {
		s    signingIn
		want string
	}{
		{signingIn{clientID: "desk", passwords: true}, "--oidc-issuer"},
		{signingIn{passwords: false}, "--password-sign-in=false needs --oidc-issuer"},
		{signingIn{issuer: "https://id.example.org", passwords: true}, "--oidc-client-id"},
		{signingIn{issuer: "https://id.example.org", clientID: "d", clientSecret: "x", secretFile: secret, passwords: true}, "not both"},
		{signingIn{issuer: "https://id.example.org", clientID: "d", secretFile: secret + ".missing", passwords: true}, "--oidc-client-secret-file"},
	} {
		if _, err := tc.s.config(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want one naming %q", tc.s, err, tc.want)
		}
	}
	if o, err := (signingIn{passwords: true}).config(); o != nil || err != nil {
		t.Errorf("no provider: %+v, %v", o, err)
	}
}
