package site_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strings"
	"testing"

	"github.com/crossrank/crossrank/web"
	"github.com/crossrank/crossrank/web/webtest"
)

// TestCaptureWARC: a published capture's WARC record is served whole at
// /captures/{sha256}.warc, as application/warc, and reads as WARC/1.1 with
// its digests right and the archived body inside; an unknown one is 404.
func TestCaptureWARC(t *testing.T) {
	t.Parallel()
	copies := webtest.Shelf{}
	page := "<p>RTX 4090 on demand</p>"
	key := copies.Put(page, "text/html; charset=utf-8", "https://example.org/prices", webtest.Fetched)
	e := newSiteEnvWith(t, func(c *web.Config) { c.Captures = copies })
	e.PublishCapture("ppio", "gpu-coverage", key, "text/html; charset=utf-8", "https://example.org/prices")

	res, body := e.Get("/captures/" + key + ".warc")
	h := res.Header
	if res.StatusCode != http.StatusOK || h.Get("Content-Type") != "application/warc" ||
		h.Get("Content-Disposition") != `attachment; filename="`+key+`.warc"` || !strings.HasPrefix(h.Get("Cache-Control"), "public") {
		t.Fatalf("GET .warc: %d %v", res.StatusCode, h)
	}
	if body != string(copies[key].Record) {
		t.Errorf("the record served is not the record archived")
	}
	recs, err := readWARC([]byte(body))
	if err != nil || len(recs) != 1 {
		t.Fatalf("%d records, %v", len(recs), err)
	}
	f := recs[0].Fields
	if f.Get("Warc-Type") != "response" || f.Get("Warc-Target-Uri") != "https://example.org/prices" ||
		f.Get("Warc-Block-Digest") == "" || f.Get("Warc-Payload-Digest") == "" {
		t.Errorf("fields %v", f)
	}
	_, payload, _ := bytes.Cut(recs[0].Block, []byte("\r\n\r\n"))
	if sum := sha256.Sum256(payload); string(payload) != page || hex.EncodeToString(sum[:]) != key {
		t.Errorf("payload %q", payload)
	}

	for _, target := range []string{"/captures/" + strings.Repeat("0", 64) + ".warc", "/captures/" + key[:63] + ".warc",
		"/captures/.warc"} {
		if res, _ := e.Get(target); res.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", target, res.StatusCode)
		}
	}
}
