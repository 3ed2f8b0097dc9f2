package site_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/web"
	"github.com/crossrank/crossrank/web/webtest"
	"github.com/crossrank/crossrank/web/webtest/openapicheck"
)

// countedShelf is a shelf of captures that counts the records read from
// it.
type countedShelf struct {
	webtest.Shelf
	reads *atomic.Int64
}

func (s countedShelf) OpenRecord(ctx context.Context, key string) (io.ReadCloser, int64, error) {
	s.reads.Add(1)
	return s.Shelf.OpenRecord(ctx, key)
}

// TestArchivesServeRanges: the edition WACZ and a capture's WARC record
// are answered as the WACZ spec asks of a server, so that a player reads
// them in place: Content-Length and Accept-Ranges, a range as 206 with
// its Content-Range and bytes, a range past the end as a 416 problem
// naming the size, a strong ETag and 304 to If-None-Match, and CORS for
// any origin, exposing the headers a ranged read needs, with a preflight
// answered for the ranges that need one. Each is written
// once from the archive: a dozen requests read each record once. The
// OpenAPI document holds every answer.
func TestArchivesServeRanges(t *testing.T) {
	t.Parallel()
	copies := webtest.Shelf{}
	key := copies.Put("<p>RTX 4090 on demand</p>", "text/html; charset=utf-8", "https://example.org/prices", webtest.Fetched)
	var reads atomic.Int64
	e := newSiteEnvWith(t, func(c *web.Config) { c.Captures = countedShelf{copies, &reads} })
	e.PublishCapture("ppio", "gpu-coverage", key, "text/html; charset=utf-8", "https://example.org/prices")
	ed, err := e.Cmd.Edition(e.Ctx, demo.RankingSlug)
	if err != nil {
		t.Fatal(err)
	}
	get := func(target string, header ...string) (*http.Response, string) {
		t.Helper()
		res, body := e.Get(target, header...)
		h := http.Header{}
		for i := 0; i+1 < len(header); i += 2 {
			h.Set(header[i], header[i+1])
		}
		openapicheck.CheckDocumented(t, http.MethodGet, target, h, nil, res, []byte(body))
		return res, body
	}

	for _, target := range []string{"/r/" + demo.RankingSlug + "/editions/" + strconv.Itoa(ed.Number) + "/evidence.wacz",
		"/captures/" + key + ".warc"} {
		before := reads.Load()
		res, whole := get(target)
		h := res.Header
		etag := h.Get("ETag")
		if res.StatusCode != http.StatusOK || h.Get("Content-Length") != strconv.Itoa(len(whole)) || h.Get("Accept-Ranges") != "bytes" ||
			len(etag) != 66 || strings.HasPrefix(etag, "W/") || h.Get("Access-Control-Allow-Origin") != "*" {
			t.Fatalf("GET %s: %d %v", target, res.StatusCode, h)
		}
		for _, name := range []string{"Content-Range", "Accept-Ranges", "ETag", "Content-Length"} {
			if !strings.Contains(h.Get("Access-Control-Expose-Headers"), name) {
				t.Errorf("GET %s: Access-Control-Expose-Headers %q lacks %s", target, h.Get("Access-Control-Expose-Headers"), name)
			}
		}

		res, part := get(target, "Range", "bytes=10-29")
		if res.StatusCode != http.StatusPartialContent || part != whole[10:30] ||
			res.Header.Get("Content-Range") != "bytes 10-29/"+strconv.Itoa(len(whole)) || res.Header.Get("ETag") != etag {
			t.Errorf("GET %s, Range bytes=10-29: %d %v %q", target, res.StatusCode, res.Header, part)
		}
		res, tail := get(target, "Range", "bytes=-22")
		if res.StatusCode != http.StatusPartialContent || tail != whole[len(whole)-22:] {
			t.Errorf("GET %s, Range bytes=-22 (a zip's end record): %d %q", target, res.StatusCode, tail)
		}
		res, body := get(target, "Range", "bytes="+strconv.Itoa(len(whole)+5)+"-")
		if res.StatusCode != http.StatusRequestedRangeNotSatisfiable || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/problem+json") ||
			res.Header.Get("Content-Range") != "bytes */"+strconv.Itoa(len(whole)) || res.Header.Get("Content-Disposition") != "" {
			t.Errorf("GET %s, Range past the end: %d %v %s", target, res.StatusCode, res.Header, body)
		}
		if res, _ := get(target, "If-None-Match", etag); res.StatusCode != http.StatusNotModified {
			t.Errorf("GET %s, If-None-Match its ETag: %d", target, res.StatusCode)
		}
		if res, body := get(target, "If-None-Match", `"other"`); res.StatusCode != http.StatusOK || body != whole {
			t.Errorf("GET %s, If-None-Match another ETag: %d", target, res.StatusCode)
		}
		if res, body := get(target, "Range", "bytes=0-3", "If-Range", `"other"`); res.StatusCode != http.StatusOK || body != whole {
			t.Errorf("GET %s, If-Range another ETag: %d, want the whole archive", target, res.StatusCode)
		}
		// A player on another origin asks before a suffix range.
		pre := httptest.NewRequest(http.MethodOptions, target, nil)
		pre.Header.Set("Origin", "http://player.example")
		pre.Header.Set("Access-Control-Request-Method", "GET")
		pre.Header.Set("Access-Control-Request-Headers", "range")
		rec := httptest.NewRecorder()
		e.Srv.Handler().ServeHTTP(rec, pre)
		if ph := rec.Result().Header; rec.Code != http.StatusNoContent || ph.Get("Access-Control-Allow-Origin") != "*" ||
			!strings.Contains(ph.Get("Access-Control-Allow-Methods"), "GET") || !strings.Contains(ph.Get("Access-Control-Allow-Headers"), "Range") {
			t.Errorf("OPTIONS %s (a CORS preflight): %d %v", target, rec.Code, ph)
		}
		if got := reads.Load() - before; got != 1 {
			t.Errorf("GET %s 8 times read the record %d times, want once: the archive is written once and kept", target, got)
		}
	}
}
