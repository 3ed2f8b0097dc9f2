package site

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain/bundle"
)

// TestEditionBundle: the edition's bundle downloads as a zip that verifies
// offline against the key the site serves at its well-known address; the
// edition page links it in both languages; an edition, ranking or number
// that is not one answers 404, and a third bundle while two are written
// 503 with Retry-After; a CORS preflight is answered 204. A site without
// a key offers neither.
func TestEditionBundle(t *testing.T) {
	key := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{7}, ed25519.SeedSize))
	e := newEnvSigning(t, 0, key)

	res, body := e.get(bundle.WellKnownPath)
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "application/jwk-set+json" {
		t.Fatalf("signing key: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	pinned, err := bundle.ParsePublicKey([]byte(body))
	if err != nil || !pinned.Equal(key.Public()) {
		t.Fatalf("signing key %s: %v", body, err)
	}

	res, body = e.get("/r/gpu-cloud/editions/1/bundle")
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "application/zip" ||
		!strings.Contains(res.Header.Get("Content-Disposition"), `filename="gpu-cloud-edition-1.bundle.zip"`) {
		t.Fatalf("bundle: %d %v", res.StatusCode, res.Header)
	}
	rep, err := bundle.Verify(strings.NewReader(body), int64(len(body)), bundle.Options{Key: pinned})
	if err != nil || rep.Manifest.Edition != 1 || !rep.Pinned {
		t.Fatalf("the downloaded bundle does not verify: %v (%+v)", err, rep.Manifest)
	}

	for lang, words := range map[string]string{"en": "Download the bundle", "zh": "下载数据包"} {
		_, page := e.get("/r/gpu-cloud/editions/1", "Accept-Language", lang)
		if !strings.Contains(page, `href="/r/gpu-cloud/editions/1/bundle"`) || !strings.Contains(page, words) {
			t.Errorf("%s edition page: no link to the bundle worded %q", lang, words)
		}
	}

	// The static export holds the same bytes where the server serves
	// them, and its edition pages link them.
	dir := filepath.Join(t.TempDir(), "site")
	for range 2 { // the second export copies the first's bundle
		if _, err := ExportWithBundles(context.Background(), e.site.read, e.site.bundles, dir, time.Now()); err != nil {
			t.Fatal(err)
		}
		if b, err := os.ReadFile(filepath.Join(dir, "r", "gpu-cloud", "editions", "1", "bundle")); err != nil || string(b) != body {
			t.Fatalf("exported bundle: %v, same bytes as served: %v", err, string(b) == body)
		}
	}
	if page, err := os.ReadFile(filepath.Join(dir, "zh", "r", "gpu-cloud", "editions", "1.html")); err != nil ||
		!strings.Contains(string(page), `href="../../../../r/gpu-cloud/editions/1/bundle"`) {
		t.Errorf("exported edition page: %v; no relative link to the bundle", err)
	}

	for _, target := range []string{"/r/gpu-cloud/editions/9/bundle", "/r/nope/editions/1/bundle", "/r/gpu-cloud/editions/x/bundle", "/r/gpu-cloud/editions/0/bundle"} {
		if res, _ := e.get(target); res.StatusCode != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", target, res.StatusCode)
		}
	}

	// The bundle is written once and kept: while every writing slot is
	// taken, the kept one is still sent, and its strong ETag answers 304;
	// one not kept waits for a slot (503 with Retry-After).
	for range bundleStreams {
		e.site.bundleSlots <- struct{}{}
	}
	res, again := e.get("/r/gpu-cloud/editions/1/bundle")
	if res.StatusCode != http.StatusOK || again != body || res.Header.Get("ETag") == "" {
		t.Errorf("the kept bundle while %d are written: %d, same bytes %v, ETag %q", bundleStreams, res.StatusCode, again == body, res.Header.Get("ETag"))
	}
	if res, _ := e.get("/r/gpu-cloud/editions/1/bundle", "If-None-Match", res.Header.Get("ETag")); res.StatusCode != http.StatusNotModified {
		t.Errorf("the kept bundle asked again with its ETag: %d, want 304", res.StatusCode)
	}
	// A range of it, to any origin (a verifier elsewhere reads it); a
	// range past its end is a problem, as every error a program reads.
	if res, part := e.get("/r/gpu-cloud/editions/1/bundle", "Range", "bytes=0-9"); res.StatusCode != http.StatusPartialContent ||
		part != body[:10] || res.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Errorf("bytes=0-9 of the bundle: %d, %q, CORS %q; want 206, its first 10 bytes, *", res.StatusCode, part, res.Header.Get("Access-Control-Allow-Origin"))
	}
	if res, _ := e.get("/r/gpu-cloud/editions/1/bundle", "Range", fmt.Sprintf("bytes=%d-", len(body)+10)); res.StatusCode != http.StatusRequestedRangeNotSatisfiable ||
		res.Header.Get("Content-Type") != "application/problem+json" {
		t.Errorf("a range past the bundle's end: %d %q, want 416 application/problem+json", res.StatusCode, res.Header.Get("Content-Type"))
	}
	// A verifier on another origin asks before a suffix range, as a WACZ
	// player does (archivePreflight).
	pre := httptest.NewRequest(http.MethodOptions, "/r/gpu-cloud/editions/1/bundle", nil)
	pre.Header.Set("Origin", "http://verifier.example")
	pre.Header.Set("Access-Control-Request-Method", "GET")
	pre.Header.Set("Access-Control-Request-Headers", "range")
	rec := httptest.NewRecorder()
	e.handler.ServeHTTP(rec, pre)
	if h := rec.Result().Header; rec.Code != http.StatusNoContent || h.Get("Access-Control-Allow-Origin") != "*" ||
		!strings.Contains(h.Get("Access-Control-Allow-Methods"), "GET") || !strings.Contains(h.Get("Access-Control-Allow-Headers"), "Range") {
		t.Errorf("OPTIONS of the bundle (a CORS preflight): %d %v; want 204 allowing GET with Range from any origin", rec.Code, h)
	}
	e.site.bundleCache = newBundleCache()
	res, _ = e.get("/r/gpu-cloud/editions/1/bundle")
	if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") == "" {
		t.Errorf("a bundle not kept while %d are written: %d, Retry-After %q; want 503 with Retry-After", bundleStreams, res.StatusCode, res.Header.Get("Retry-After"))
	}
	for range bundleStreams {
		<-e.site.bundleSlots
	}

	off := newEnv(t, 0)
	for _, target := range []string{"/r/gpu-cloud/editions/1/bundle", bundle.WellKnownPath} {
		if res, _ := off.get(target); res.StatusCode != http.StatusNotFound {
			t.Errorf("without a key, %s: %d, want 404", target, res.StatusCode)
		}
	}
	if _, page := off.get("/r/gpu-cloud/editions/1"); strings.Contains(page, "download-bundle") {
		t.Error("without a key, the edition page links a bundle")
	}
}
