package bundle

import (
	"archive/zip"
	"bufio"
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/crossrank/crossrank/domain/strictjson"
	"github.com/crossrank/crossrank/events"
)

// The checks Verify makes, by name, in the order it reports them.
const (
	CheckManifest  = "manifest"
	CheckSignature = "signature"
	CheckFiles     = "files"
	CheckEvents    = "events"
	CheckSnapshot  = "snapshot"
	CheckEvidence  = "evidence"
	CheckCaptures  = "captures"
)

// Check is one thing Verify checked: what, and whether it held. Detail
// says what was checked when it held, and what failed when it did not.
type Check struct {
	Name   string
	OK     bool
	Detail string
}

// Report is what Verify checked.
type Report struct {
	Manifest Manifest
	Checks   []Check
	// Pinned reports whether the signature was checked against a key the
	// caller gave; otherwise against the key the bundle carries.
	Pinned bool
}

// Options configure Verify.
type Options struct {
	// Key pins the key the manifest must be signed with; nil: the key the
	// bundle carries is trusted (and the report says so).
	Key ed25519.PublicKey
}

// maxLine bounds a line of a bundle's files: an event body is at most
// events.MaxBody, and its envelope is small.
const maxLine = events.MaxBody + 64<<10

// maxManifest bounds manifest.json and signature.json.
const maxManifest = 1 << 20

// Verify checks the bundle of size bytes read from r: the manifest's
// signature, every file against its digest, and then what the files say —
// it replays the events with the domain's Evolve functions, recomputes
// every edition's snapshot hash with BuildSnapshot and compares it with the
// hash the edition committed to (and the last with the manifest's), checks
// that every evidence item a published value cites is in the bundle, and
// that the captures listed are those the evidence events record. It makes
// every check it can and reports each; the error, wrapping ErrInvalid,
// names those that failed.
func Verify(r io.ReaderAt, size int64, o Options) (Report, error) {
	v := &verifier{rep: Report{Pinned: o.Key != nil}, added: map[string]bool{}}
	zr, err := zip.NewReader(r, size)
	if err != nil {
		v.fail(CheckManifest, "not a zip file: %v", err)
		return v.result()
	}
	v.files = map[string]*zip.File{}
	for _, f := range zr.File {
		if v.files[f.Name] != nil {
			v.fail(CheckFiles, "%s is in the zip twice", f.Name)
		}
		v.files[f.Name] = f
	}
	if !v.manifest() {
		return v.result()
	}
	v.signature(o.Key)
	v.evidence()
	v.captures()
	v.events()
	v.listed()
	return v.result()
}

// verifier holds what the checks found so far.
type verifier struct {
	rep    Report
	files  map[string]*zip.File
	fails  map[string][]string
	passes map[string]string
	// got are the digests of the files as read, by name.
	got map[string]File
	// added holds "proposal/evidence" for every evidence item in the bundle.
	added    map[string]bool
	captured []Capture
}

// fail records a failure of check; more than maxFails of one check are
// counted, not listed.
func (v *verifier) fail(check, format string, args ...any) {
	if v.fails == nil {
		v.fails = map[string][]string{}
	}
	v.fails[check] = append(v.fails[check], fmt.Sprintf(format, args...))
}

const maxFails = 5

// pass records what check checked, reported unless it failed.
func (v *verifier) pass(check, format string, args ...any) {
	if v.passes == nil {
		v.passes = map[string]string{}
	}
	v.passes[check] = fmt.Sprintf(format, args...)
}

// result adds the failed checks to the report and returns it.
func (v *verifier) result() (Report, error) {
	var failed []string
	for _, name := range []string{CheckManifest, CheckSignature, CheckFiles, CheckEvents, CheckSnapshot, CheckEvidence, CheckCaptures} {
		fs := v.fails[name]
		if len(fs) == 0 {
			if d, ok := v.passes[name]; ok {
				v.rep.Checks = append(v.rep.Checks, Check{Name: name, OK: true, Detail: d})
			}
			continue
		}
		detail := strings.Join(fs[:min(len(fs), maxFails)], "; ")
		if len(fs) > maxFails {
			detail += fmt.Sprintf("; and %d more", len(fs)-maxFails)
		}
		v.rep.Checks = append(v.rep.Checks, Check{Name: name, Detail: detail})
		failed = append(failed, name+": "+detail)
	}
	if len(failed) > 0 {
		return v.rep, fmt.Errorf("%w: %s", ErrInvalid, strings.Join(failed, " | "))
	}
	return v.rep, nil
}

// read returns a small file's bytes.
func (v *verifier) read(name string) ([]byte, error) {
	f := v.files[name]
	if f == nil {
		return nil, fmt.Errorf("%s is missing", name)
	}
	rc, err := f.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, maxManifest+1))
	if err == nil && len(b) > maxManifest {
		err = fmt.Errorf("%s is larger than %d bytes", name, maxManifest)
	}
	return b, err
}

// decodeStrict decodes one JSON document that has no duplicate key and
// no field v does not know.
func decodeStrict(b []byte, out any) error {
	if err := strictjson.Check(b); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	return dec.Decode(out)
}

func (v *verifier) manifest() bool {
	b, err := v.read(ManifestFile)
	if err == nil {
		err = decodeStrict(b, &v.rep.Manifest)
	}
	m := v.rep.Manifest
	switch {
	case err != nil:
		v.fail(CheckManifest, "%v", err)
	case m.Format != Format:
		v.fail(CheckManifest, "format %q, want %q", m.Format, Format)
	case !events.ValidID(m.Ranking) || m.Edition < 1:
		v.fail(CheckManifest, "ranking %q edition %d", m.Ranking, m.Edition)
	default:
		v.pass(CheckManifest, "%s, ranking %s, edition %d", Format, m.Ranking, m.Edition)
		return true
	}
	return false
}

// signature checks signature.json against manifest.json's bytes.
func (v *verifier) signature(pinned ed25519.PublicKey) {
	m := v.rep.Manifest
	carried, err := m.Key.PublicKey()
	if err != nil {
		v.fail(CheckSignature, "the manifest's key: %v", err)
		return
	}
	key := carried
	if pinned != nil {
		if !bytes.Equal(pinned, carried) {
			v.fail(CheckSignature, "the bundle is signed by key %s, not the pinned key %s", m.Key.Kid, PublicJWK(pinned).Kid)
			return
		}
		key = pinned
	}
	b, err := v.read(SignatureFile)
	var sig Signature
	if err == nil {
		err = decodeStrict(b, &sig)
	}
	if err != nil {
		v.fail(CheckSignature, "%v", err)
		return
	}
	raw, err := base64.StdEncoding.DecodeString(sig.Value)
	body, rerr := v.read(ManifestFile)
	switch {
	case sig.Alg != "EdDSA" || sig.KeyID != m.Key.Kid:
		v.fail(CheckSignature, "signature.json names alg %q key %q, want EdDSA and the manifest's key %s", sig.Alg, sig.KeyID, m.Key.Kid)
	case err != nil || len(raw) != ed25519.SignatureSize:
		v.fail(CheckSignature, "the signature is not 64 bytes of base64")
	case rerr != nil:
		v.fail(CheckSignature, "%v", rerr)
	case !ed25519.Verify(key, body, raw):
		v.fail(CheckSignature, "the Ed25519 signature does not match manifest.json under key %s: the manifest was changed, or signed by another key", m.Key.Kid)
	case pinned != nil:
		v.pass(CheckSignature, "Ed25519 signature of manifest.json by key %s, the pinned key", m.Key.Kid)
	default:
		v.pass(CheckSignature, "Ed25519 signature of manifest.json by key %s — the key the bundle carries, trusted as it is: pin the site's key (%s) with --key", m.Key.Kid, WellKnownPath)
	}
}

// scan reads a data file a line at a time through fn, hashing it as it
// goes, and records its digest, size and lines for listed.
func (v *verifier) scan(name string, fn func(n int, line []byte)) {
	f := v.files[name]
	if f == nil {
		v.fail(CheckFiles, "%s is missing", name)
		return
	}
	rc, err := f.Open()
	if err != nil {
		v.fail(CheckFiles, "%s: %v", name, err)
		return
	}
	defer rc.Close()
	sum := sha256.New()
	var size int64
	sc := bufio.NewScanner(io.TeeReader(rc, sum))
	sc.Buffer(make([]byte, 64<<10), maxLine)
	n := 0
	for sc.Scan() {
		n++
		size += int64(len(sc.Bytes())) + 1
		fn(n, sc.Bytes())
	}
	if err := sc.Err(); err != nil {
		v.fail(CheckFiles, "%s line %d: %v", name, n+1, err)
		return
	}
	if v.got == nil {
		v.got = map[string]File{}
	}
	v.got[name] = File{Name: name, SHA256: hex.EncodeToString(sum.Sum(nil)), Size: size, Lines: n}
}

// listed compares the files as read with the manifest's list.
func (v *verifier) listed() {
	m := v.rep.Manifest
	want := map[string]File{}
	for _, f := range m.Files {
		want[f.Name] = f
	}
	var ok []string
	for _, name := range dataFiles {
		w, listed := want[name]
		g, read := v.got[name]
		switch {
		case !listed:
			v.fail(CheckFiles, "the manifest does not list %s", name)
		case !read:
			// scan said why
		case g.SHA256 != w.SHA256 || g.Size != w.Size:
			v.fail(CheckFiles, "%s hashes to %.12s… (%d bytes), the manifest says %.12s… (%d bytes)", name, g.SHA256, g.Size, w.SHA256, w.Size)
		default:
			ok = append(ok, fmt.Sprintf("%s (%d lines, sha256 %.12s…)", name, g.Lines, g.SHA256))
		}
		delete(want, name)
	}
	for name := range want {
		v.fail(CheckFiles, "the manifest lists %s, which no bundle holds", name)
	}
	for name := range v.files {
		if _, ok := v.got[name]; !ok && name != ManifestFile && name != SignatureFile {
			v.fail(CheckFiles, "%s is not listed in the manifest", name)
		}
	}
	v.pass(CheckFiles, "%s match the manifest's digests", strings.Join(ok, ", "))
}
