package main

import (
	"archive/zip"
	"bytes"
	"encoding/base64"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crossrank/crossrank/domain/bundle"
)

// TestBundleCLI: `crossrank bundle` writes edition 1's bundle on a data
// folder of its own (making the signing key, mode 0600) and through the
// server that owns the folder, the same bytes both times and as the site
// serves them; `crossrank verify-bundle` checks it with no data folder and
// no server, trusting the key it carries (and saying so) or pinning the key
// the site serves; a forged signature or another pinned key fails it.
func TestBundleCLI(t *testing.T) {
	t.Parallel()
	crossrankBinary(t)
	data, dir := t.TempDir(), t.TempDir()
	runCLI(t, "seed", "--data", data)
	first := filepath.Join(dir, "first.zip")
	if out := runCLI(t, "bundle", "gpu-cloud", "1", "--out", first, "--data", data); !strings.Contains(out, "wrote the bundle of gpu-cloud edition 1") {
		t.Fatalf("bundle: %s", out)
	}
	if st, err := os.Stat(filepath.Join(data, signingKeyFile)); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("signing key: %v, mode %v; want 0600", err, st.Mode().Perm())
	}
	out := runCLI(t, "verify-bundle", first)
	for _, want := range []string{"ok     signature", "ok     snapshot", "ok     evidence", "note: no --key given"} {
		if !strings.Contains(out, want) {
			t.Errorf("verify-bundle says no %q:\n%s", want, out)
		}
	}

	srv := startServe(t, "serve", data, "--no-demo")
	res, err := http.Get(srv.url + bundle.WellKnownPath)
	if err != nil {
		t.Fatal(err)
	}
	keyJSON, _ := io.ReadAll(res.Body)
	res.Body.Close()
	keyFile := filepath.Join(dir, "site.jwks")
	os.WriteFile(keyFile, keyJSON, 0o600)
	second := filepath.Join(dir, "second.zip")
	runCLI(t, "bundle", "gpu-cloud", "1", "--out", second, "--data", data)
	res, err = http.Get(srv.url + "/r/gpu-cloud/editions/1/bundle")
	if err != nil {
		t.Fatal(err)
	}
	served, _ := io.ReadAll(res.Body)
	res.Body.Close()
	a, _ := os.ReadFile(first)
	b, _ := os.ReadFile(second)
	if !bytes.Equal(a, b) || !bytes.Equal(a, served) {
		t.Errorf("the bundles differ: alone %d bytes, through the server %d, served %d", len(a), len(b), len(served))
	}
	if out := runCLI(t, "verify-bundle", second, "--key", keyFile); !strings.Contains(out, "the pinned key") || strings.Contains(out, "note:") {
		t.Errorf("verify-bundle --key:\n%s", out)
	}
	if out, err := runCLIErr(t, "bundle", "gpu-cloud", "7", "--out", filepath.Join(dir, "none.zip"), "--data", data); err == nil || !strings.Contains(out, "no such edition") {
		t.Errorf("bundle of an edition not published: %v\n%s", err, out)
	}

	forged := filepath.Join(dir, "forged.zip")
	os.WriteFile(forged, forgeSignature(t, a), 0o600)
	if out, err := runCLIErr(t, "verify-bundle", forged); err == nil || !strings.Contains(out, "FAILED signature") {
		t.Errorf("a forged signature: %v\n%s", err, out)
	}
	other := filepath.Join(dir, "other.key")
	os.WriteFile(other, []byte(base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{9}, 32))), 0o600)
	if out, err := runCLIErr(t, "verify-bundle", first, "--key", other); err == nil || !strings.Contains(out, "not the pinned key") {
		t.Errorf("another pinned key: %v\n%s", err, out)
	}
}

// forgeSignature returns the bundle z with its signature's first byte
// changed.
func forgeSignature(t *testing.T, z []byte) []byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(z), int64(len(z)))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	for _, f := range zr.File {
		rc, _ := f.Open()
		body, _ := io.ReadAll(rc)
		rc.Close()
		if f.Name == bundle.SignatureFile {
			i := bytes.Index(body, []byte(`"signature": "`)) + len(`"signature": "`)
			if body[i] == 'A' {
				body[i] = 'B'
			} else {
				body[i] = 'A'
			}
		}
		w, _ := zw.Create(f.Name)
		w.Write(body)
	}
	zw.Close()
	return out.Bytes()
}
