package main

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
)

// signingKeyFile keeps the site's Ed25519 signing key in the data folder:
// the standard base64 of its 32-byte seed, mode 0600 like session.key.
const signingKeyFile = "signing.key"

// signingKey returns CROSSRANK_SIGNING_KEY or, when it is not set, the key
// kept in the data folder, made on first use. It signs the editions'
// bundles (domain/bundle); its public half is served at
// /.well-known/crossrank-signing-key. Replicas with data folders of their
// own must share CROSSRANK_SIGNING_KEY, or each signs with a key of its own.
func signingKey(data string, log *slog.Logger) (ed25519.PrivateKey, error) {
	if v := os.Getenv("CROSSRANK_SIGNING_KEY"); v != "" {
		k, err := parseSigningKey(v)
		if err != nil {
			return nil, fmt.Errorf("CROSSRANK_SIGNING_KEY: %w", err)
		}
		return k, nil
	}
	path := filepath.Join(data, signingKeyFile)
	if b, err := os.ReadFile(path); err == nil {
		k, err := parseSigningKey(string(b))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		return k, nil
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	seed := make([]byte, ed25519.SeedSize)
	rand.Read(seed)
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(base64.StdEncoding.EncodeToString(seed)+"\n"), 0o600); err != nil {
		return nil, err
	}
	// A link, not a rename: a key made meanwhile is kept, and read back.
	err := os.Link(tmp, path)
	os.Remove(tmp)
	if errors.Is(err, os.ErrExist) {
		return signingKey(data, log)
	}
	if err != nil {
		return nil, err
	}
	log.Info("made the site's signing key for edition bundles and kept it in the data directory", "path", path)
	return ed25519.NewKeyFromSeed(seed), nil
}

func parseSigningKey(s string) (ed25519.PrivateKey, error) {
	seed, err := base64.StdEncoding.DecodeString(strings.TrimSpace(s))
	if err != nil || len(seed) != ed25519.SeedSize {
		return nil, errors.New("want the standard base64 of a 32-byte Ed25519 seed")
	}
	return ed25519.NewKeyFromSeed(seed), nil
}
