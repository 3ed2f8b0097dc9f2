package bundle_test

import (
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/crossrank/crossrank/domain/bundle"
)

var update = flag.Bool("update", false, "write docs/bundle-vectors again from the vectors' definitions")

// vectorsDir is where the vectors live, beside the specification they
// illustrate.
const vectorsDir = "../../docs/bundle-vectors"

// vectorKey signs the vectors; otherKey is a key nobody pins.
var vectorKey, otherKey = newKey(7), newKey(9)

// Vector is one entry of vectors.json: a bundle, and what every verifier
// must find in it with key.jwks pinned.
type Vector struct {
	Name        string `json:"name"`
	File        string `json:"file"`
	Description string `json:"description"`
	Valid       bool   `json:"valid"`
	// Failing lists the checks that fail, in the specification's order.
	Failing  []string        `json:"failing"`
	Editions []VectorEdition `json:"editions,omitempty"`
}

// VectorEdition is one edition's recomputed snapshot: its hash, and the
// file holding its exact bytes.
type VectorEdition struct {
	Edition      int    `json:"edition"`
	SnapshotHash string `json:"snapshot_hash"`
	Snapshot     string `json:"snapshot"`
}

// TestVectors writes every vector from its definition, checks it with the
// Go verifier (the expected checks fail, and only those), and compares it
// with docs/bundle-vectors: the files' contents, vectors.json, the key and
// every snapshot's bytes. With -update it writes the directory instead.
// The zips are compared entry by entry, not byte for byte, so a new
// deflate in Go's library does not count as drift.
func TestVectors(t *testing.T) {
	files := map[string][]byte{}
	var index []Vector
	for _, d := range vectorDefs(t) {
		v := Vector{Name: d.name, File: d.name + ".zip", Description: d.description, Valid: len(d.failing) == 0, Failing: d.failing}
		rep, err := verify(d.zip, bundle.Options{Key: vectorKey.Public().(ed25519.PublicKey)})
		if got := failed(rep); !slices.Equal(got, d.failing) {
			t.Errorf("%s: checks %v failed (%v), want %v", d.name, got, err, d.failing)
		}
		if v.Valid {
			if v.Failing == nil {
				v.Failing = []string{}
			}
			for n := 1; n <= len(d.snapshots); n++ {
				name := fmt.Sprintf("%s.edition-%d.snapshot.json", d.name, n)
				files[name] = d.snapshots[n]
				v.Editions = append(v.Editions, VectorEdition{Edition: n, SnapshotHash: hexSHA256(d.snapshots[n]), Snapshot: name})
			}
			if last := v.Editions[len(v.Editions)-1].SnapshotHash; last != rep.Manifest.SnapshotHash {
				t.Errorf("%s: the last snapshot hashes to %s, the manifest says %s", d.name, last, rep.Manifest.SnapshotHash)
			}
		}
		files[v.File] = d.zip
		index = append(index, v)
	}
	ib, _ := json.MarshalIndent(index, "", "  ")
	files["vectors.json"] = append(ib, '\n')
	kb, _ := json.MarshalIndent(bundle.KeySet{Keys: []bundle.JWK{bundle.PublicJWK(vectorKey.Public().(ed25519.PublicKey))}}, "", "  ")
	files["key.jwks"] = append(kb, '\n')

	if *update {
		for name, b := range files {
			if err := os.WriteFile(filepath.Join(vectorsDir, name), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	on, err := os.ReadDir(vectorsDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range on {
		if _, ok := files[f.Name()]; !ok && f.Name() != "README.md" {
			t.Errorf("%s/%s is no vector's: remove it, or run with -update after adding its definition", vectorsDir, f.Name())
		}
	}
	for name, want := range files {
		got, err := os.ReadFile(filepath.Join(vectorsDir, name))
		switch {
		case err != nil:
			t.Errorf("%v (go test ./domain/bundle -run TestVectors -update writes it)", err)
		case strings.HasSuffix(name, ".zip"):
			if g, w := zipContents(t, got), zipContents(t, want); g != w {
				t.Errorf("%s drifted from its definition: run go test ./domain/bundle -run TestVectors -update and review the diff", name)
			}
		case !bytes.Equal(got, want):
			t.Errorf("%s drifted from its definition: run go test ./domain/bundle -run TestVectors -update and review the diff", name)
		}
	}
}

// zipContents is a zip's entries, names and bodies, in order.
func zipContents(t *testing.T, z []byte) string {
	var b strings.Builder
	for _, f := range unzip(t, z) {
		fmt.Fprintf(&b, "%s %d %s\n", f.name, f.method, base64.StdEncoding.EncodeToString(f.body))
	}
	return b.String()
}
