package site

import (
	"io"
	"net/http"
	"strconv"
	"strings"

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
// and check with any WARC tool. It is public under the copy's own rule
// and streams from the archive a buffer at a time, a bounded number at
// once.
func (s *Site) captureWARC(w http.ResponseWriter, r *http.Request, key string) {
	release, err := s.captureSlots.acquire(r)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	defer release()
	public, err := s.visible(r, key)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	rec, size, err := s.captures.OpenRecord(r.Context(), key)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	defer rec.Close()
	h := w.Header()
	h.Set("Content-Security-Policy", rawCSP) // the record holds the page as sent: never run it
	h.Set("X-Content-Type-Options", "nosniff")
	cacheFor(h, public)
	h.Set("Content-Type", "application/warc")
	h.Set("Content-Disposition", `attachment; filename="`+key+`.warc"`)
	h.Set("Content-Length", strconv.FormatInt(size, 10))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		dw := newDeadlineWriter(w)
		_, _ = io.Copy(dw, rec)
		dw.close()
	}
}
