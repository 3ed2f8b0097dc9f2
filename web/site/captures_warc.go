package site

import (
	"context"
	"io"
	"net/http"
	"strings"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/web/ui"
)

// warcProblems has h answer a capture's .warc, a download, with problems
// when it fails (ui.Problems), and the capture's page with error pages:
// the two share one route, since the mux cannot route a suffix.
func warcProblems(h http.Handler) http.Handler {
	problems := ui.Problems(h)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.PathValue("sha256"), ".warc") {
			problems.ServeHTTP(w, r)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// captureWARC serves GET /captures/{sha256}.warc: the capture's WARC/1.1
// record as archived, fields, HTTP head and body, for a reader to keep
// and check with any WARC tool. It is public under the copy's own rule.
// The record is copied from the archive once, holding a capture slot,
// and kept (archive_cache.go): a range of it is answered 206, a reader
// holding its ETag 304, and a public one is readable from any origin.
func (s *Site) captureWARC(w http.ResponseWriter, r *http.Request, key string) {
	public, err := s.visible(r, key)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	h := w.Header()
	if public {
		allowArchiveReaders(h)
	}
	err = s.archives.serve(w, r, "warc "+key, func(ctx context.Context, out io.Writer) error {
		release, err := s.captureSlots.acquire(r)
		if err != nil {
			return err
		}
		defer release()
		rec, _, err := s.captures.OpenRecord(ctx, key)
		if err != nil {
			return err
		}
		defer rec.Close()
		_, err = io.Copy(out, rec)
		return err
	}, func() {
		h.Set("Content-Security-Policy", rawCSP) // the record holds the page as sent: never run it
		h.Set("X-Content-Type-Options", "nosniff")
		cacheFor(h, public)
		h.Set("Content-Type", "application/warc")
		h.Set("Content-Disposition", `attachment; filename="`+key+`.warc"`)
	})
	if err != nil {
		ui.Fail(w, r, err)
	}
}

// capturePreflight answers a CORS preflight for a capture's record
// (archivePreflight); its page is not read from other origins.
func (s *Site) capturePreflight(w http.ResponseWriter, r *http.Request) {
	if !strings.HasSuffix(r.PathValue("sha256"), ".warc") {
		ui.Fail(w, r, domain.ErrNotFound)
		return
	}
	archivePreflight(w, r)
}
