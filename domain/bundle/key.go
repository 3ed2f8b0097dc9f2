package bundle

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// JWK is an Ed25519 public key as a JSON Web Key (RFC 8037), its id the
// key's RFC 7638 thumbprint.
type JWK struct {
	Kty string `json:"kty"` // "OKP"
	Crv string `json:"crv"` // "Ed25519"
	X   string `json:"x"`   // base64url of the 32 key bytes, unpadded
	Kid string `json:"kid"`
	Use string `json:"use,omitempty"`
	Alg string `json:"alg,omitempty"`
}

// KeySet is the JWK set served at WellKnownPath.
type KeySet struct {
	Keys []JWK `json:"keys"`
}

// WellKnownPath is where a site serves its signing key (RFC 8615).
const WellKnownPath = "/.well-known/crossrank-signing-key"

// PublicJWK returns pub as a JWK.
func PublicJWK(pub ed25519.PublicKey) JWK {
	x := base64.RawURLEncoding.EncodeToString(pub)
	// RFC 7638: the required members in lexicographic order, no spaces.
	sum := sha256.Sum256([]byte(`{"crv":"Ed25519","kty":"OKP","x":"` + x + `"}`))
	return JWK{Kty: "OKP", Crv: "Ed25519", X: x, Kid: base64.RawURLEncoding.EncodeToString(sum[:]), Use: "sig", Alg: "EdDSA"}
}

// PublicKey returns the key a JWK holds, checking that its id is its
// thumbprint.
func (k JWK) PublicKey() (ed25519.PublicKey, error) {
	if k.Kty != "OKP" || k.Crv != "Ed25519" {
		return nil, fmt.Errorf("key: kty %q crv %q, want OKP Ed25519", k.Kty, k.Crv)
	}
	b, err := base64.RawURLEncoding.DecodeString(k.X)
	if err != nil || len(b) != ed25519.PublicKeySize {
		return nil, errors.New("key: x is not 32 bytes of unpadded base64url")
	}
	if want := PublicJWK(b).Kid; k.Kid != "" && k.Kid != want {
		return nil, fmt.Errorf("key: kid %q is not the key's thumbprint %q", k.Kid, want)
	}
	return b, nil
}

// ParsePublicKey reads a public key to pin: a JWK set (the answer of
// WellKnownPath) holding one key, a JWK, or the 32 key bytes in standard
// or URL-safe base64.
func ParsePublicKey(b []byte) (ed25519.PublicKey, error) {
	s := strings.TrimSpace(string(b))
	if strings.HasPrefix(s, "{") {
		var set struct {
			Keys []JWK `json:"keys"`
			JWK
		}
		if err := json.Unmarshal([]byte(s), &set); err != nil {
			return nil, fmt.Errorf("key: %w", err)
		}
		switch {
		case len(set.Keys) == 1:
			return set.Keys[0].PublicKey()
		case len(set.Keys) > 1:
			return nil, errors.New("key: the set holds several keys; pass the one to pin")
		}
		return set.JWK.PublicKey()
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if k, err := enc.DecodeString(s); err == nil && len(k) == ed25519.PublicKeySize {
			return k, nil
		}
	}
	return nil, errors.New("key: neither a JWK nor 32 bytes of base64")
}
