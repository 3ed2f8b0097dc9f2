package auth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/httpx"
)

// tokenPrefix starts every API token, so a leaked one is easy to recognise
// (and to scan for in repositories).
const tokenPrefix = "crk_"

// NewToken returns a fresh API token: its id (a UUIDv7), its secret, the
// full token the user keeps (crk_<id>_<secret>) and the hash to store (hex
// SHA-256 of the full token). Only the hash is ever recorded.
func NewToken(now time.Time) (id, secret, full, hash string) {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	id, secret = events.NewID(now), hex.EncodeToString(b)
	full = tokenPrefix + id + "_" + secret
	return id, secret, full, TokenHash(full)
}

// TokenHash returns the hex SHA-256 of a full token, as stored.
func TokenHash(full string) string {
	sum := sha256.Sum256([]byte(full))
	return hex.EncodeToString(sum[:])
}

// ParseToken returns the id of a token shaped crk_<id>_<secret>.
func ParseToken(full string) (id string, ok bool) {
	rest, ok := strings.CutPrefix(full, tokenPrefix)
	if !ok || len(full) > 200 {
		return "", false
	}
	id, secret, ok := strings.Cut(rest, "_")
	if !ok || !events.ValidID(id) || len(secret) != 64 {
		return "", false
	}
	if _, err := hex.DecodeString(secret); err != nil {
		return "", false
	}
	return id, true
}

// bearerToken returns the token of an "Authorization: Bearer <token>"
// header, and whether the header is present at all.
func bearerToken(header string) (token string, present bool) {
	if header == "" {
		return "", false
	}
	scheme, tok, _ := strings.Cut(header, " ")
	if !strings.EqualFold(scheme, "Bearer") {
		return "", true
	}
	return strings.TrimSpace(tok), true
}

// userByToken verifies a bearer token: its owner exists, and it is known,
// not revoked, not expired, and its hash matches.
func (s *Service) userByToken(ctx context.Context, full string, now time.Time) (*domain.User, string, error) {
	id, ok := ParseToken(full)
	if !ok {
		return nil, "", fmt.Errorf("%w: malformed bearer token", httpx.ErrUnauthenticated)
	}
	if s.tokens == nil {
		return nil, "", fmt.Errorf("%w: bearer tokens are not configured", httpx.ErrUnauthenticated)
	}
	name, err := s.tokens.TokenOwner(ctx, id)
	if errors.Is(err, domain.ErrNotFound) {
		return nil, "", fmt.Errorf("%w: unknown token %s", httpx.ErrUnauthenticated, id)
	}
	if err != nil {
		return nil, "", err
	}
	u, err := s.users.User(ctx, name)
	if errors.Is(err, domain.ErrNotFound) {
		return nil, "", fmt.Errorf("%w: token %s of missing user", httpx.ErrUnauthenticated, id)
	}
	if err != nil {
		return nil, "", err
	}
	t := u.Tokens[id]
	switch {
	case t == nil:
		return nil, "", fmt.Errorf("%w: unknown token %s", httpx.ErrUnauthenticated, id)
	case t.Revoked:
		return nil, "", fmt.Errorf("%w: revoked token %s", httpx.ErrUnauthenticated, id)
	case !t.ExpiresAt.IsZero() && !now.Before(t.ExpiresAt):
		return nil, "", fmt.Errorf("%w: expired token %s", httpx.ErrUnauthenticated, id)
	case subtle.ConstantTimeCompare([]byte(TokenHash(full)), []byte(t.Hash)) != 1:
		return nil, "", fmt.Errorf("%w: wrong secret for token %s", httpx.ErrUnauthenticated, id)
	}
	return u, id, nil
}
