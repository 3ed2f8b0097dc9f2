package site

import (
	"bytes"
	"compress/gzip"
	"hash/crc32"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestCRCShiftCombines(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 7, 22, 1000, 65537} {
		a, b := make([]byte, 1+rng.IntN(300)), make([]byte, n)
		for i := range a {
			a[i] = byte(rng.Uint32())
		}
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		got := newCRCShift(len(b)).apply(crc32.ChecksumIEEE(a)) ^ crc32.ChecksumIEEE(b)
		if want := crc32.ChecksumIEEE(append(a, b...)); got != want {
			t.Errorf("len(b)=%d: combined CRC %08x, want %08x", n, got, want)
		}
	}
}

func TestGzipPartsWithNonce(t *testing.T) {
	for _, parts := range [][][]byte{
		{[]byte("{}")},
		{[]byte(`<script nonce="`), []byte(`"></script><p>` + strings.Repeat("ranking row ", 5000) + `</p>`)},
		{{}, []byte("middle"), {}},
	} {
		gz, err := gzipParts(parts)
		if err != nil {
			t.Fatal(err)
		}
		w := httptest.NewRecorder()
		writeGzip(w, gz, "N0nce+/abc")
		res := w.Result()
		zr, err := gzip.NewReader(res.Body)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(zr) // checks the CRC and the size
		if err != nil {
			t.Fatalf("gunzip: %v", err)
		}
		if want := bytes.Join(parts, []byte("N0nce+/abc")); !bytes.Equal(got, want) {
			t.Errorf("gunzipped %.80q…, want %.80q…", got, want)
		}
		if res.Header.Get("Content-Encoding") != "gzip" || res.ContentLength != int64(w.Body.Len()) {
			t.Errorf("headers %v for %d bytes", res.Header, w.Body.Len())
		}
	}
}

func TestAcceptsGzip(t *testing.T) {
	for v, want := range map[string]bool{
		"": false, "gzip": true, "gzip, deflate, br, zstd": true, "br;q=1.0, GZIP;q=0.5": true,
		"gzip;q=0": false, "deflate": false, "x-gzip": false,
	} {
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		r.Header.Set("Accept-Encoding", v)
		if got := acceptsGzip(r); got != want {
			t.Errorf("acceptsGzip(%q) = %v", v, got)
		}
	}
}
