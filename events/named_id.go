package events

import (
	"crypto/sha256"
	"encoding/hex"
)

// NamedID returns the version-8 (custom) UUID that name stands for: the
// first 16 bytes of name's SHA-256 with the version nibble 8 and an RFC
// 9562 variant. The same name gives the same id on every replica and every
// retry, so a command named this way — the capture of one evidence item,
// one re-check of it, the firing of one schedule — is stored once however
// often it is sent.
func NamedID(name string) string {
	sum := sha256.Sum256([]byte(name))
	return hashUUID(sum, sum[8]&3)
}

// KeyedID is NamedID for a command id hashed from a client's
// Idempotency-Key: the variant's two free bits come from the high half of
// the hash's ninth byte (as setting the variant bits in place does), where
// NamedID takes them from its low half. Each keeps the form it was first
// written with, since the ids already stored depend on it.
func KeyedID(name string) string {
	sum := sha256.Sum256([]byte(name))
	return hashUUID(sum, sum[8]>>4&3)
}

// hashUUID formats sum's first 16 bytes as a UUID of version 8 whose
// variant nibble is 8 + bits (bits < 4).
func hashUUID(sum [32]byte, bits byte) string {
	h := hex.EncodeToString(sum[:16])
	return h[0:8] + "-" + h[8:12] + "-8" + h[13:16] + "-" + string("89ab"[bits]) + h[17:20] + "-" + h[20:32]
}
