package bundle

import (
	"archive/zip"
	"bufio"
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// Producer writes the bundles of a store's editions, signed with its key.
type Producer struct {
	store events.Store
	key   ed25519.PrivateKey
}

// NewProducer returns a Producer reading store and signing with key.
func NewProducer(store events.Store, key ed25519.PrivateKey) *Producer {
	return &Producer{store: store, key: key}
}

// Key returns the public half of the signing key.
func (p *Producer) Key() JWK { return PublicJWK(p.key.Public().(ed25519.PublicKey)) }

// Edition is what one edition's bundle is made of, loaded by Prepare and
// written by WriteTo.
type Edition struct {
	p       *Producer
	ranking string
	number  int
	head    events.Event
	// events are the ranking's methodology events and its editions' parts
	// and heads up to this edition, in stream order, their payloads
	// dropped (the bundle writes the bytes as stored).
	events []events.Event
	// cited holds the evidence ids each proposal's published values cite.
	cited map[string]map[string]bool
}

// methodology reports whether e is one of the ranking's events its
// snapshot depends on (its conflicts of interest are left out: they decide
// no value).
func methodology(e events.Event) bool {
	switch e.Data.(type) {
	case *events.RankingDefined, *events.WeightsSet, *events.ScenariosSet, *events.MethodologyPublished:
		return true
	}
	return false
}

// Prepare loads edition n of ranking slug: the edition aggregate's events
// and the ranking's, which are a few; the evidence is read when the bundle
// is written. An error wrapping ErrNoEdition when there is no such
// edition (yet).
func (p *Producer) Prepare(ctx context.Context, slug string, n int) (*Edition, error) {
	if !events.ValidID(slug) || n < 1 {
		return nil, ErrNoEdition
	}
	eds, err := p.store.Load(ctx, domain.EditionID(slug), 0)
	if err != nil {
		return nil, err
	}
	b := &Edition{p: p, ranking: slug, number: n, cited: map[string]map[string]bool{}}
	for _, e := range eds {
		switch d := e.Data.(type) {
		case *events.EditionPartRecorded:
			if d.Number <= n {
				b.cite(d.Changes)
				b.keep(e)
			}
		case *events.EditionPublished:
			if d.Number <= n {
				b.cite(d.Changes)
				b.keep(e)
			}
			if d.Number == n {
				b.head = e
			}
		}
	}
	if b.head.Sequence == 0 {
		return nil, fmt.Errorf("%w: %s edition %d", ErrNoEdition, slug, n)
	}
	rk, err := p.store.Load(ctx, domain.RankingID(slug), 0)
	if err != nil {
		return nil, err
	}
	for _, e := range rk {
		if methodology(e) && e.Sequence < b.head.Sequence {
			b.keep(e)
		}
	}
	slices.SortFunc(b.events, func(x, y events.Event) int { return compareSeq(x.Sequence, y.Sequence) })
	return b, nil
}

func compareSeq(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func (b *Edition) keep(e events.Event) {
	e.Data = nil // the bytes are written; the decoded lists of a large edition are not kept
	b.events = append(b.events, e)
}

func (b *Edition) cite(changes []events.AppliedChange) {
	for _, c := range changes {
		for _, id := range c.Evidence {
			if b.cited[c.Proposal] == nil {
				b.cited[c.Proposal] = map[string]bool{}
			}
			b.cited[c.Proposal][id] = true
		}
	}
}

// Name is the file name the bundle is offered under.
func (b *Edition) Name() string { return FileName(b.ranking, b.number) }

// errStop ends the replay at the edition's head.
var errStop = errors.New("bundle: past the edition")

// WriteTo writes the bundle to w as a zip, a file at a time and each as
// it is read: only the list of captures (a line per cited capture) is held
// until its file is written. The bytes are the same on every call, as
// Ed25519 signatures are deterministic.
func (b *Edition) WriteTo(ctx context.Context, w io.Writer) error {
	zw := zip.NewWriter(w)
	at := zipTime(b.head.Time)
	m := Manifest{Format: Format, Ranking: b.ranking, Edition: b.number, Sequence: b.head.Sequence,
		PublishedAt: b.head.Time.UTC().Format(time.RFC3339Nano), Key: b.p.Key()}
	m.SnapshotHash = b.head.Data.(*events.EditionPublished).SnapshotHash
	f, err := newFile(zw, EventsFile, at)
	if err != nil {
		return err
	}
	for _, e := range b.events {
		f.line(published(e))
	}
	if err := m.add(f); err != nil {
		return err
	}
	var captures []Capture
	if f, err = newFile(zw, EvidenceFile, at); err != nil {
		return err
	}
	found := map[[2]string]bool{}
	err = b.p.store.Replay(ctx, 1, func(e events.Event) error {
		if e.Sequence > b.head.Sequence {
			return errStop
		}
		if b.cited[e.Subject] == nil || e.Kind() != events.KindProposal { // the map first: Kind parses the type
			return nil
		}
		switch d := e.Data.(type) {
		case *events.EvidenceAdded:
			if b.cited[e.Subject][d.EvidenceID] {
				found[[2]string{e.Subject, d.EvidenceID}] = true
				f.line(published(e))
			}
		case *events.EvidenceCaptured:
			if b.cited[e.Subject][d.EvidenceID] {
				f.line(published(e))
				captures = append(captures, Capture{Proposal: e.Subject, Evidence: d.EvidenceID, SHA256: d.SHA256, URL: d.URL, FetchedAt: d.FetchedAt})
			}
		}
		return f.err
	})
	if err != nil && !errors.Is(err, errStop) {
		return err
	}
	if err := b.allFound(found); err != nil {
		return err
	}
	if err := m.add(f); err != nil {
		return err
	}
	if f, err = newFile(zw, CapturesFile, at); err != nil {
		return err
	}
	for _, c := range captures {
		line, err := json.Marshal(c)
		if err != nil {
			return err
		}
		f.line(line)
	}
	if err := m.add(f); err != nil {
		return err
	}
	return b.sign(zw, m, at)
}

// published returns e's line as a public bundle carries it: its
// canonical bytes with the authvia attribute cut to the kind of door the
// actor came through ("token", "oidc", "session"…). A token's id and the
// label its user gave it, and the organisation's sign-in address, are the
// desk's own; the actor's name stays, as a byline does. Nothing a bundle
// checks reads authvia: the snapshot is recomputed from the payloads.
func published(e events.Event) []byte {
	if kind, _, cut := strings.Cut(e.AuthVia, ";"); cut {
		e.AuthVia = kind
	}
	return events.Canonical(e)
}

// allFound reports an evidence item cited but never added: the stream
// itself would be wrong, and a bundle of it would not verify.
func (b *Edition) allFound(found map[[2]string]bool) error {
	for p, ids := range b.cited {
		for id := range ids {
			if !found[[2]string{p, id}] {
				return fmt.Errorf("bundle: edition %d cites evidence %s of proposal %s, which the stream does not hold", b.number, id, p)
			}
		}
	}
	return nil
}

// sign writes the manifest and its signature and closes the zip.
func (b *Edition) sign(zw *zip.Writer, m Manifest, at time.Time) error {
	body, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	body = append(body, '\n')
	sig := Signature{Alg: "EdDSA", KeyID: m.Key.Kid, Value: base64.StdEncoding.EncodeToString(ed25519.Sign(b.p.key, body))}
	sb, err := json.MarshalIndent(sig, "", "  ")
	if err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		body []byte
	}{{ManifestFile, body}, {SignatureFile, append(sb, '\n')}} {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: f.name, Method: zip.Deflate, Modified: at})
		if err != nil {
			return err
		}
		if _, err := w.Write(f.body); err != nil {
			return err
		}
	}
	return zw.Close()
}

// file is one data file being written: it counts and hashes the bytes on
// their way into the zip, and keeps the first error.
type file struct {
	name  string
	w     *bufio.Writer
	sum   hash.Hash
	size  int64
	lines int
	err   error
}

func newFile(zw *zip.Writer, name string, at time.Time) (*file, error) {
	zf, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate, Modified: at})
	if err != nil {
		return nil, err
	}
	f := &file{name: name, sum: sha256.New()}
	f.w = bufio.NewWriterSize(io.MultiWriter(zf, f.sum), 64<<10)
	return f, nil
}

func (f *file) line(b []byte) {
	if f.err != nil {
		return
	}
	if _, err := f.w.Write(b); err != nil {
		f.err = err
		return
	}
	f.err = f.w.WriteByte('\n')
	f.size += int64(len(b)) + 1
	f.lines++
}

// add flushes f and lists it in the manifest, or returns the first
// error writing it met.
func (m *Manifest) add(f *file) error {
	if f.err == nil {
		f.err = f.w.Flush()
	}
	if f.err != nil {
		return fmt.Errorf("bundle: write %s: %w", f.name, f.err)
	}
	m.Files = append(m.Files, File{Name: f.name, SHA256: hex.EncodeToString(f.sum.Sum(nil)), Size: f.size, Lines: f.lines})
	return nil
}
