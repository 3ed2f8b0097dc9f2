package bundle_test

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/bundle"
	"github.com/crossrank/crossrank/events"
)

// The test vectors (docs/bundle-vectors) are written by the bundle's own
// writer from a store in memory whose events have fixed ids and times, so
// the same code gives the same bytes on every run.

// memStore is an events.Store in memory holding a fixed history: what
// Producer reads (Load, Replay). It refuses appends.
type memStore struct{ evs []events.Event }

var _ events.Store = (*memStore)(nil)

func (m *memStore) Append(context.Context, []events.Expectation, ...events.Event) (uint64, error) {
	return 0, errors.New("memStore: read only")
}

func (m *memStore) Load(_ context.Context, agg events.Aggregate, after uint64) ([]events.Event, error) {
	var out []events.Event
	for _, e := range m.evs {
		if e.Sequence > after && e.Aggregate() == agg {
			out = append(out, e)
		}
	}
	return out, nil
}

func (m *memStore) LoadMany(ctx context.Context, aggs []events.Aggregate) (map[events.Aggregate][]events.Event, uint64, error) {
	out := map[events.Aggregate][]events.Event{}
	for _, a := range aggs {
		out[a], _ = m.Load(ctx, a, 0)
	}
	last, _ := m.LastSequence(ctx)
	return out, last, nil
}

func (m *memStore) Replay(_ context.Context, from uint64, fn func(events.Event) error) error {
	for _, e := range m.evs {
		if e.Sequence >= from {
			if err := fn(e); err != nil {
				return err
			}
		}
	}
	return nil
}

func (m *memStore) LastSequence(context.Context) (uint64, error) {
	if len(m.evs) == 0 {
		return 0, nil
	}
	return m.evs[len(m.evs)-1].Sequence, nil
}

// vectorHistory builds one ranking's events, a sequence and a minute apart,
// computing each edition's snapshot hash with the domain's functions.
type vectorHistory struct {
	t     *testing.T
	slug  string
	store memStore
	// snapshots are the canonical bytes of each edition's snapshot, by
	// number: the vector's intermediate values.
	snapshots map[int][]byte
	actor     string
	authVia   string
}

func newHistory(t *testing.T, slug string) *vectorHistory {
	return &vectorHistory{t: t, slug: slug, snapshots: map[int][]byte{}, actor: "editor", authVia: "session"}
}

var vectorEpoch = time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)

// event returns payload as the next event of aggregate subject.
func (h *vectorHistory) event(subject string, payload any) events.Event {
	h.t.Helper()
	typ, err := events.TypeName(payload)
	if err != nil {
		h.t.Fatal(err)
	}
	raw, err := json.Marshal(payload)
	if err != nil {
		h.t.Fatal(err)
	}
	seq := uint64(len(h.store.evs) + 1)
	return events.Event{ID: fmt.Sprintf("01955555-0000-7000-8000-%012d", seq), Source: events.DefaultSource,
		Type: typ, StoredType: typ, Subject: subject, Time: vectorEpoch.Add(time.Duration(seq) * time.Minute),
		Actor: h.actor, AuthVia: h.authVia, DataContentType: events.ContentType, Data: payload, Raw: raw, Sequence: seq}
}

// add appends payload as an event of the ranking (or of its editions).
func (h *vectorHistory) add(payload any) events.Event {
	e := h.event(h.slug, payload)
	h.store.evs = append(h.store.evs, e)
	return e
}

// evidence adds evidence item id to proposal, and its capture when url
// is set.
func (h *vectorHistory) evidence(proposal, id, url string) {
	ev := &events.EvidenceAdded{EvidenceID: id, Revision: 1, Claim: events.Text{En: "Claim " + id + " of " + proposal},
		Excerpt: "As the page says.", ObservedOn: "2026-02-20"}
	if url != "" {
		ev.SourceURL = url
	} else {
		ev.SourceName = "Price sheet (PDF) & notes"
	}
	h.store.evs = append(h.store.evs, storedAsV2(h.t, h.event(proposal, ev)))
	if url != "" {
		sum := sha256.Sum256([]byte("page of " + url))
		h.store.evs = append(h.store.evs, h.event(proposal, &events.EvidenceCaptured{EvidenceID: id, URL: url, FinalURL: url,
			Status: 200, ContentType: "text/html", Size: 1234, SHA256: hex.EncodeToString(sum[:]), FetchedAt: "2026-02-21T08:00:00Z"}))
	}
}

// evidenceV1 adds evidence item id to proposal as a Crossrank before
// evidence_added.v2 stored it: the bundle carries it as stored.
func (h *vectorHistory) evidenceV1(proposal, id string) {
	e := h.event(proposal, &events.EvidenceAdded{EvidenceID: id, Revision: 1, Claim: events.Text{En: "Claim " + id}, Excerpt: "Quoted.",
		ObservedOn: "2026-02-19", SourceURL: "https://example.com/v1"})
	e.StoredType = "crossrank.proposal.evidence_added.v1"
	e.Raw = json.RawMessage(`{"evidence_id":"` + id + `","revision":1,"claim":"Claim ` + id + `","source":"https://example.com/v1","excerpt":"Quoted.","observed_on":"2026-02-19"}`)
	h.store.evs = append(h.store.evs, e)
}

// publish appends edition d, whole or, with budget > 0, split into parts
// of at most budget bytes (events.SplitEdition), after computing the
// snapshot it commits to.
func (h *vectorHistory) publish(d events.EditionPublished, budget int) {
	h.t.Helper()
	d.Ranking = h.slug
	if d.Proposals == nil {
		d.Proposals = []string{}
	}
	if d.Changes == nil {
		d.Changes = []events.AppliedChange{}
	}
	d.PreviewHash = fmt.Sprintf("%064x", d.Number)
	d.AuditSeq = uint64(len(h.store.evs))
	d.AuditHead = fmt.Sprintf("%064x", 0xa0+d.Number)
	head, parts := d, []events.EditionPartRecorded(nil)
	if budget > 0 {
		var err error
		if head, parts, err = events.SplitEdition(d, budget); err != nil {
			h.t.Fatal(err)
		}
		if len(parts) < 2 {
			h.t.Fatalf("edition %d: %d parts, want several", d.Number, len(parts))
		}
	}
	actor, via := h.actor, h.authVia
	h.actor, h.authVia = "publisher", "token;id=tok-7;name=laptop & phone"
	defer func() { h.actor, h.authVia = actor, via }()
	for i := range parts {
		h.add(&parts[i])
	}
	// The head's hash is of the state with the head applied; the hash
	// itself is no input of the snapshot.
	r, ed := h.state(h.event(h.slug, &head))
	snap := domain.BuildSnapshot(r, ed)
	head.SnapshotHash = snap.Hash()
	h.snapshots[d.Number] = snap.JSON()
	h.add(&head)
}

// state replays the ranking's events, and then extra, as the verifier
// does.
func (h *vectorHistory) state(extra ...events.Event) (*domain.Ranking, *domain.Edition) {
	r, ed := &domain.Ranking{}, &domain.Edition{Entries: map[string]*domain.PublishedEntry{}}
	for _, e := range append(h.store.evs[:len(h.store.evs):len(h.store.evs)], extra...) {
		if e.Subject != h.slug {
			continue
		}
		switch e.Data.(type) {
		case *events.EditionPartRecorded, *events.EditionPublished:
			ed.Evolve(e)
		default:
			r.Evolve(e)
		}
	}
	return r, ed
}

// bundle writes edition n's bundle with the bundle's own writer.
func (h *vectorHistory) bundle(key ed25519.PrivateKey, n int) []byte {
	h.t.Helper()
	ctx := testContext(h.t)
	b, err := bundle.NewProducer(&h.store, key).Prepare(ctx, h.slug, n)
	if err != nil {
		h.t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := b.WriteTo(ctx, &buf); err != nil {
		h.t.Fatal(err)
	}
	return buf.Bytes()
}

// score and tags build an AppliedChange's values.
func score(v int) *int { return &v }

func change(proposal, entry, target string, to *int, evidence ...string) events.AppliedChange {
	if evidence == nil {
		evidence = []string{}
	}
	return events.AppliedChange{Proposal: proposal, Entry: entry, Target: target, ToScore: to, Evidence: evidence}
}

func tagChange(proposal, entry, key string, tags ...string) events.AppliedChange {
	return events.AppliedChange{Proposal: proposal, Entry: entry, Target: "attr:" + key, ToTags: tags, Evidence: []string{}}
}

// zipEntry is one file of a zip, as a tampered vector is rewritten.
type zipEntry struct {
	name   string
	body   []byte
	method uint16
}

func unzip(t *testing.T, z []byte) []zipEntry {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(z), int64(len(z)))
	if err != nil {
		t.Fatal(err)
	}
	var out []zipEntry
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, zipEntry{name: f.Name, body: b, method: f.Method})
	}
	return out
}

func rezip(t *testing.T, files []zipEntry) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range files {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: f.name, Method: f.method, Modified: vectorEpoch})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(f.body); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// tamper rewrites bundle z: edit changes the files (by name; it may add
// or drop some), and with key set the manifest's digests are made those
// of the files and the manifest is signed again by key, as a key holder
// making a wrong bundle would.
func tamper(t *testing.T, z []byte, key ed25519.PrivateKey, edit func(files map[string][]byte) []zipEntry) []byte {
	t.Helper()
	files := unzip(t, z)
	byName := map[string][]byte{}
	for _, f := range files {
		byName[f.name] = f.body
	}
	out := edit(byName)
	if out == nil {
		for i := range files {
			files[i].body = byName[files[i].name]
		}
		out = files
	}
	if key != nil {
		var m bundle.Manifest
		if err := json.Unmarshal(byName[bundle.ManifestFile], &m); err != nil {
			t.Fatal(err)
		}
		for i, f := range m.Files {
			sum := sha256.Sum256(byName[f.Name])
			m.Files[i].SHA256, m.Files[i].Size, m.Files[i].Lines = hex.EncodeToString(sum[:]), int64(len(byName[f.Name])), bytes.Count(byName[f.Name], []byte("\n"))
		}
		m.Key = bundle.PublicJWK(key.Public().(ed25519.PublicKey))
		mb, _ := json.MarshalIndent(m, "", "  ")
		mb = append(mb, '\n')
		sig := bundle.Signature{Alg: "EdDSA", KeyID: m.Key.Kid, Value: base64.StdEncoding.EncodeToString(ed25519.Sign(key, mb))}
		sb, _ := json.MarshalIndent(sig, "", "  ")
		for i := range out {
			switch out[i].name {
			case bundle.ManifestFile:
				out[i].body = mb
			case bundle.SignatureFile:
				out[i].body = append(sb, '\n')
			}
		}
	}
	return rezip(t, out)
}
