// Package webhook posts each published edition to a URL, signed with
// HMAC-SHA256, exactly once per URL and edition however often the process
// restarts.
//
// The sender reads EditionPublished events from the stream through a
// durable JetStream consumer (filter crossrank.edition.*.published, named
// after the URL's hash, explicit acknowledgement, one message in flight).
// For each edition it first reads the webhook's own aggregate in the event
// store: an edition recorded there as delivered, or as finally failed, is
// acknowledged and skipped. Otherwise it posts, retrying with exponential
// backoff, then appends WebhookDelivered (or, after the last attempt,
// WebhookFailed) with an expectation on the aggregate, and only then
// acknowledges the message. Stopped mid-retry it gives the message back,
// and the next sender starts over; the record, not the consumer, decides
// what has been delivered. Deliveries and failures reach the audit trail
// through the projection like every other event.
//
// One window is left, as in every at-least-once system: a crash after the
// receiver answered 2xx and before the record is stored posts the edition
// again. Each post carries the idempotency key "<ranking>/<edition>" in the
// body (id) and in X-Crossrank-Delivery, so a receiver can drop it.
//
// Each post is signed the Standard Webhooks 1.0 way
// (https://www.standardwebhooks.com): webhook-id (the edition's event id,
// the same on every attempt and redelivery, so a receiver catches
// replays), webhook-timestamp (unix seconds of the attempt) and
// webhook-signature "v1,<base64 HMAC-SHA256 of id.timestamp.body>", so
// receivers can verify with the spec's libraries. A secret is
// "whsec_<base64 key>"; a plain secret (the form before) is the key's
// bytes themselves, and for one release such a secret also signs
// X-Crossrank-Signature as before.
//
// It lives under cmd/crossrank because it needs the NATS client, which
// neither web nor domain may import.
package webhook

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"strconv"
	"strings"
)

// SignatureHeader carries "sha256=<hex HMAC-SHA256 of the body>".
//
// Deprecated: sent only for a plain (not whsec_) secret, for one release;
// receivers verify StandardSignatureHeader instead.
const SignatureHeader = "X-Crossrank-Signature"

// The Standard Webhooks 1.0 headers.
const (
	IDHeader                = "webhook-id"
	TimestampHeader         = "webhook-timestamp"
	StandardSignatureHeader = "webhook-signature"
)

// SecretPrefix starts a Standard Webhooks secret: whsec_<base64 key>.
const SecretPrefix = "whsec_"

// Key returns the signing key of secret: the base64-decoded rest of a
// whsec_ secret, or a plain secret's bytes; legacy reports a plain one.
func Key(secret string) (key []byte, legacy bool, err error) {
	rest, ok := strings.CutPrefix(secret, SecretPrefix)
	if !ok {
		return []byte(secret), true, nil
	}
	key, err = base64.StdEncoding.DecodeString(rest)
	if err != nil || len(key) == 0 {
		return nil, false, errors.New("webhook: a whsec_ secret must hold a base64 key")
	}
	return key, false, nil
}

// SignStandard returns the webhook-signature value of a delivery:
// "v1," and the base64 HMAC-SHA256 under key of "id.timestamp.body".
func SignStandard(key []byte, id string, timestamp int64, body []byte) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(id + "." + strconv.FormatInt(timestamp, 10) + "."))
	m.Write(body)
	return "v1," + base64.StdEncoding.EncodeToString(m.Sum(nil))
}

// DeliveryHeader carries the idempotency key "<ranking>/<edition>".
const DeliveryHeader = "X-Crossrank-Delivery"

// Sign returns the signature header value of body under secret.
func Sign(secret string, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(body)
	return "sha256=" + hex.EncodeToString(m.Sum(nil))
}

// Verify reports whether header is body's signature under secret; the
// comparison takes the same time whatever the header holds.
func Verify(secret string, body []byte, header string) bool {
	got, ok := strings.CutPrefix(header, "sha256=")
	if !ok {
		return false
	}
	sig, err := hex.DecodeString(got)
	if err != nil {
		return false
	}
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(body)
	return hmac.Equal(sig, m.Sum(nil))
}

// Payload is the JSON body of a delivery. Field names are stable.
type Payload struct {
	ID           string   `json:"id"`   // "<ranking>/<edition>": the idempotency key
	Type         string   `json:"type"` // "edition-published"
	Ranking      string   `json:"ranking"`
	Edition      int      `json:"edition"`
	PublishedAt  string   `json:"published_at"`
	Publisher    string   `json:"publisher"`
	SnapshotHash string   `json:"snapshot_hash"`
	Proposals    []string `json:"proposals"`
	NewEntries   []string `json:"new_entries"`
	Changes      int      `json:"changes"`
	Note         string   `json:"note,omitempty"`
}

// AggregateID is the id of the webhook's aggregate in the event store:
// "wh-" and 32 hex digits of the URL's hash. The desk names a webhook by it
// when it asks for a redelivery.
func AggregateID(url string) string { return "wh-" + hashOf(url)[:32] }

// hashOf is the hex SHA-256 of the URL: the webhook's aggregate id and
// consumer name come from it, so the URL itself (which may hold a token)
// never becomes a subject or a name.
func hashOf(url string) string {
	sum := sha256.Sum256([]byte(url))
	return hex.EncodeToString(sum[:])
}
