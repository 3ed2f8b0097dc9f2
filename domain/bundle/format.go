// Package bundle writes and checks an edition bundle: one zip file holding
// everything needed to recompute an edition of a ranking offline — the
// events its published state was computed from, the evidence its values
// cite, the digests of the captured pages that evidence points to, and the
// snapshot hash — signed by the site's Ed25519 key. Verify recomputes the
// snapshot with the domain's own functions (Ranking.Evolve, Edition.Evolve,
// BuildSnapshot, Snapshot.Hash) and needs no server, no NATS and no
// network. The format is documented in docs/edition-bundle.md.
package bundle

import (
	"errors"
	"fmt"
	"time"

	"github.com/crossrank/crossrank/domain"
)

// Format names the bundle format in its manifest.
const Format = "crossrank.bundle/v1"

// The files of a bundle, in the order they are written. The manifest comes
// after the files it lists (their digests are known once they are
// written), and the signature after the manifest it signs.
const (
	EventsFile    = "events.jsonl"
	EvidenceFile  = "evidence.jsonl"
	CapturesFile  = "captures.jsonl"
	ManifestFile  = "manifest.json"
	SignatureFile = "signature.json"
)

// dataFiles are the files a manifest lists, in order.
var dataFiles = []string{EventsFile, EvidenceFile, CapturesFile}

// Manifest describes a bundle; its bytes are what the signature signs.
type Manifest struct {
	Format  string `json:"format"`
	Ranking string `json:"ranking"`
	Edition int    `json:"edition"`
	// SnapshotHash is the hash edition Edition's head event commits to.
	SnapshotHash string `json:"snapshot_hash"`
	// Sequence is the stream sequence of that head event: the bundle
	// holds nothing stored after it.
	Sequence    uint64 `json:"sequence"`
	PublishedAt string `json:"published_at"` // the head event's time, RFC 3339
	Key         JWK    `json:"key"`          // the key that signs the manifest
	Files       []File `json:"files"`
}

// File is one file of the bundle as the manifest lists it.
type File struct {
	Name   string `json:"name"`
	SHA256 string `json:"sha256"` // hex SHA-256 of its bytes
	Size   int64  `json:"size"`
	Lines  int    `json:"lines"`
}

// Signature is signature.json: the Ed25519 signature of manifest.json's
// exact bytes, by the key with id KeyID.
type Signature struct {
	Alg   string `json:"alg"` // "EdDSA" (RFC 8037)
	KeyID string `json:"kid"`
	Value string `json:"signature"` // standard base64 of the 64 signature bytes
}

// Capture is one line of captures.jsonl: a captured page that the
// edition's evidence cites, as its EvidenceCaptured event recorded it.
type Capture struct {
	Proposal  string `json:"proposal"`
	Evidence  string `json:"evidence"`
	SHA256    string `json:"sha256"` // hex SHA-256 of the captured body
	URL       string `json:"url"`
	FetchedAt string `json:"fetched_at"`
}

// ErrNoEdition says the ranking has no such edition (a not-found error).
var ErrNoEdition = fmt.Errorf("bundle: no such edition: %w", domain.ErrNotFound)

// ErrInvalid says a bundle failed a check; the wrapping error names which.
var ErrInvalid = errors.New("bundle: invalid")

// FileName is the name a bundle is offered under.
func FileName(ranking string, edition int) string {
	return fmt.Sprintf("%s-edition-%d.bundle.zip", ranking, edition)
}

// zipTime is the modification time every entry of a bundle carries: the
// edition's publication, so the same edition gives the same bytes.
func zipTime(published time.Time) time.Time {
	if published.Year() < 1980 { // the zip format's epoch
		return time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	return published.UTC().Truncate(time.Second)
}
