package bundle_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"testing"

	"github.com/crossrank/crossrank/domain/bundle"
	"github.com/crossrank/crossrank/events"
)

// vectorDef is one vector: its bundle, the checks that must fail, and for
// a good one every edition's snapshot bytes.
type vectorDef struct {
	name, description string
	zip               []byte
	failing           []string
	snapshots         map[int][]byte
}

func hexSHA256(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// text is a name in both languages.
func text(zh, en string) events.Text { return events.Text{Zh: zh, En: en} }

func criteria(weights ...any) []events.Criterion {
	var out []events.Criterion
	for i := 0; i < len(weights); i += 2 {
		slug := weights[i].(string)
		out = append(out, events.Criterion{Slug: slug, Name: text(slug, slug), Weight: weights[i+1].(int)})
	}
	return out
}

func categories(slugs ...string) []events.Category {
	var out []events.Category
	for _, s := range slugs {
		out = append(out, events.Category{Slug: s, Name: text(s, s)})
	}
	return out
}

func entry(slug, category string, name events.Text, proposal string) events.PublishedEntry {
	return events.PublishedEntry{Slug: slug, Name: name, Category: category, Proposal: proposal}
}

// vectorDefs builds every vector, the good ones first.
func vectorDefs(t *testing.T) []vectorDef {
	basic := basicHistory(t)
	basicZip := basic.bundle(vectorKey, 1)
	parts := partsHistory(t)
	good := []vectorDef{
		{name: "basic", description: "A ranking defined before methodology was reviewed (ranking.defined, scenarios_set), one edition: three entries in two categories, names with <, >, &, a quote, U+2028 and Chinese (the snapshot escapes them as Go does), an attribute, evidence (one stored as evidence_added.v1) and two captures; the publisher's authvia is cut to \"token\".",
			zip: basicZip, snapshots: basic.snapshots},
		tiesVector(t),
		scenariosVector(t),
		methodologyVector(t),
		legacyWeightsVector(t),
		{name: "parts", description: "Edition 2 is split into parts (edition.part_recorded, a head with size); edition 3 comes whole after it.",
			zip: parts.bundle(vectorKey, 3), snapshots: parts.snapshots},
		attributesVector(t),
	}
	resigned := func(edit func(map[string][]byte) []zipEntry) []byte { return tamper(t, basicZip, vectorKey, edit) }
	firstScore := func(f map[string][]byte) []zipEntry {
		f[bundle.EventsFile] = bytes.Replace(f[bundle.EventsFile], []byte(`"to_score":8`), []byte(`"to_score":2`), 1)
		return nil
	}
	bad := []vectorDef{
		{name: "bad-signature", description: "basic with one bit of the signature flipped.", failing: []string{"signature"},
			zip: tamper(t, basicZip, nil, func(f map[string][]byte) []zipEntry {
				var s bundle.Signature
				if err := json.Unmarshal(f[bundle.SignatureFile], &s); err != nil {
					t.Fatal(err)
				}
				raw, _ := base64.StdEncoding.DecodeString(s.Value)
				raw[10] ^= 1
				f[bundle.SignatureFile] = bytes.Replace(f[bundle.SignatureFile], []byte(s.Value), []byte(base64.StdEncoding.EncodeToString(raw)), 1)
				return nil
			})},
		{name: "other-key", description: "basic signed again by another key, which the manifest carries: not the pinned key.", failing: []string{"signature"},
			zip: tamper(t, basicZip, otherKey, func(map[string][]byte) []zipEntry { return nil })},
		{name: "digest-mismatch", description: "basic with a score changed in events.jsonl (8 to 2) and the manifest left as it was.", failing: []string{"files", "snapshot"},
			zip: tamper(t, basicZip, nil, firstScore)},
		{name: "snapshot-mismatch", description: "basic with a score changed in events.jsonl (8 to 2), the manifest's digests made to match and signed again by the pinned key: only recomputing the snapshot finds it.", failing: []string{"snapshot"},
			zip: resigned(firstScore)},
		{name: "manifest-snapshot-hash", description: "basic with the manifest's snapshot_hash replaced, signed again by the pinned key.", failing: []string{"snapshot"},
			zip: resigned(func(f map[string][]byte) []zipEntry {
				var m bundle.Manifest
				if err := json.Unmarshal(f[bundle.ManifestFile], &m); err != nil {
					t.Fatal(err)
				}
				f[bundle.ManifestFile] = bytes.Replace(f[bundle.ManifestFile], []byte(m.SnapshotHash), []byte(hexSHA256([]byte("another ranking"))), 1)
				return nil
			})},
		{name: "missing-evidence", description: "basic without the evidence_added line of evidence e2 of proposal p-kite, which a change cites; signed again.", failing: []string{"evidence"},
			zip: resigned(func(f map[string][]byte) []zipEntry {
				f[bundle.EvidenceFile] = dropLine(t, f[bundle.EvidenceFile], `"subject":"p-kite"`, `"evidence_id":"e2"`)
				return nil
			})},
		{name: "capture-mismatch", description: "basic with a capture's sha256 changed in captures.jsonl; signed again.", failing: []string{"captures"},
			zip: resigned(func(f map[string][]byte) []zipEntry {
				c := f[bundle.CapturesFile]
				i := bytes.Index(c, []byte(`"sha256":"`)) + len(`"sha256":"`)
				if c[i] == '0' {
					c[i] = '1'
				} else {
					c[i] = '0'
				}
				return nil
			})},
		{name: "non-canonical-line", description: "basic with the scenarios_set line's actor \"r\\u0026d\" written \"r&d\": the same value, not the canonical bytes; signed again. The line is refused, so the edition is computed without its scenario.", failing: []string{"events", "snapshot"},
			zip: resigned(func(f map[string][]byte) []zipEntry {
				f[bundle.EventsFile] = bytes.Replace(f[bundle.EventsFile], []byte(`"actor":"r\u0026d"`), []byte(`"actor":"r&d"`), 1)
				return nil
			})},
		{name: "missing-part", description: "parts without the first part of edition 2; signed again.", failing: []string{"events", "snapshot"},
			zip: tamper(t, parts.bundle(vectorKey, 3), vectorKey, func(f map[string][]byte) []zipEntry {
				f[bundle.EventsFile] = dropLine(t, f[bundle.EventsFile], `"type":"crossrank.edition.part_recorded.v1"`, `"part":1,`)
				return nil
			})},
		{name: "unlisted-file", description: "basic with a file the manifest does not list (stored, not deflated).", failing: []string{"files"},
			zip: tamper(t, basicZip, nil, func(f map[string][]byte) []zipEntry {
				files := unzip(t, basicZip)
				return append(files, zipEntry{name: "notes.txt", body: []byte("not part of the edition\n")})
			})},
	}
	return append(good, bad...)
}

// dropLine removes the one line of b holding every one of marks.
func dropLine(t *testing.T, b []byte, marks ...string) []byte {
	t.Helper()
	lines := bytes.SplitAfter(b, []byte("\n"))
	for i, l := range lines {
		all := true
		for _, m := range marks {
			all = all && bytes.Contains(l, []byte(m))
		}
		if all {
			return bytes.Join(append(lines[:i:i], lines[i+1:]...), nil)
		}
	}
	t.Fatalf("no line holds %q", marks)
	return nil
}
