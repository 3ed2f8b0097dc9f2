package site

import (
	"context"
	"fmt"
	"io"
	"mime"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/i18n"
	"github.com/crossrank/crossrank/web/ui"
)

// Captures reads the archived copies of cited pages, by the hex SHA-256
// of their body. The capture worker's archive implements it (in cmd).
type Captures interface {
	// Open returns the capture stored under sha256 with its body left to
	// read, a buffer at a time; the caller closes it. An error wrapping
	// ErrNoCapture when there is none.
	Open(ctx context.Context, sha256 string) (*Capture, error)
	// OpenRecord returns the whole WARC record stored under sha256, as
	// archived and size bytes long, to read a buffer at a time; the
	// caller closes it. An error wrapping ErrNoCapture when there is none.
	OpenRecord(ctx context.Context, sha256 string) (rec io.ReadCloser, size int64, err error)
}

// Capture is one archived response as readers are shown it.
type Capture struct {
	Body        io.ReadCloser // the body as the source sent it, decompressed
	Size        int64         // Body's length
	ContentType string        // the original response's Content-Type
	Fetched     time.Time     // when the fetch began
	URL         string        // the address that answered
}

// ErrNoCapture says no capture is stored under a key, or none the reader
// may see.
var ErrNoCapture = fmt.Errorf("site: no such capture: %w", domain.ErrNotFound)

// DefaultCaptureStreams bounds the archived bodies sent at once: each
// holds a connection and a read of the archive. One client address may
// hold CaptureStreamsPerClient of them, so no reader can hold them all
// (429 past its share, 503 when others hold the rest; slots.go), and a
// slow reader is cut off (deadlineWriter).
const (
	DefaultCaptureStreams   = 16
	CaptureStreamsPerClient = 4
)

// captureRetry is the Retry-After of a refused archived body.
const captureRetry = time.Second

var captureKey = regexp.MustCompile(`^[0-9a-f]{64}$`)

// rawCSP keeps an archived body inert however it is reached: sandbox (no
// scripts, no forms, a unique origin, so no cookies or storage of the
// site's), and nothing loaded from elsewhere, so reading a copy tells no
// third party. It may be framed by the site's own copy page only.
const rawCSP = "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:; " +
	"frame-ancestors 'self'; base-uri 'none'; form-action 'none'"

// framed reports whether a browser shows media inside the copy page's
// sandboxed frame; anything else (a PDF, which a sandboxed viewer would
// not show) is offered as a download only.
func framed(media string) bool {
	return media == "text/html" || media == "application/xhtml+xml" || strings.HasPrefix(media, "text/") ||
		media == "application/json"
}

// open returns the capture under the request's key if the reader may see
// it: anyone once a published edition cites it, a signed-in desk user
// always (drafts' sources are reviewed before they are published), except
// a vendor, which sees a draft's capture only when it is cited for one of
// its own entries (domain.Actor.Sees).
func (s *Site) open(r *http.Request) (*Capture, bool, error) {
	key := r.PathValue("sha256")
	public, err := s.visible(r, key)
	if err != nil {
		return nil, false, err
	}
	c, err := s.captures.Open(r.Context(), key)
	return c, public, err
}

// visible reports whether the capture under key is public, and refuses it
// as unknown when the reader may not see it (or the site keeps none).
func (s *Site) visible(r *http.Request, key string) (public bool, err error) {
	if s.captures == nil || !captureKey.MatchString(key) {
		return false, ErrNoCapture
	}
	public, err = s.read.CapturePublished(r.Context(), key)
	if err != nil {
		return false, err
	}
	if public {
		return true, nil
	}
	u := httpx.User(r.Context())
	if u == nil {
		return false, ErrNoCapture
	}
	if a := u.Actor(); a.Vendor() {
		own, err := s.read.CaptureCitedFor(r.Context(), key, a.Entries)
		if err != nil {
			return false, err
		}
		if !own {
			return false, ErrNoCapture
		}
	}
	return false, nil
}

// cacheFor sets how long the answer about a capture may be kept: a day by
// anyone when it is public (the body never changes under its hash), not
// at all when only a signed-in user may see it.
func cacheFor(h http.Header, public bool) {
	if public {
		h.Set("Cache-Control", "public, max-age=86400")
		h.Set("Vary", "Cookie, Accept-Language")
		return
	}
	h.Set("Cache-Control", "private, no-store")
}

// capture serves GET /captures/{sha256}: a page of the site's own that
// says what the copy is, of what and when, and shows the archived body in
// a sandboxed frame below, so nothing in the body can hide, restyle or
// garble what the site says about it.
func (s *Site) capture(w http.ResponseWriter, r *http.Request) {
	if key, ok := strings.CutSuffix(r.PathValue("sha256"), ".warc"); ok {
		s.captureWARC(w, r, key) // a wildcard is a whole segment: the mux cannot route the suffix
		return
	}
	c, public, err := s.open(r)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	c.Body.Close() // the page needs what the head says, not the body
	key := r.PathValue("sha256")
	lang := httpx.Lang(r.Context())
	media, _, _ := mime.ParseMediaType(c.ContentType)
	v := captureView{
		Banner:   i18n.T(lang, "capture.banner", c.URL, i18n.DateTime(lang, c.Fetched)),
		Download: "/captures/" + key + "/download",
		Size:     c.Size,
	}
	if framed(media) {
		v.Frame = "/captures/" + key + "/raw"
	}
	cacheFor(w.Header(), public)
	p := ui.PageOf(r, "public.archived_copy", "rankings")
	ui.Render(w, r, http.StatusOK, capturePage(p, v))
}

// captureView is what the copy page shows.
type captureView struct {
	Banner   string // what the copy is, of what and when
	Frame    string // the body inline, for the sandboxed frame; "": not shown inline
	Download string // the body as an attachment
	Size     int64
}

// captureRaw serves GET /captures/{sha256}/raw, the body for the copy
// page's frame, and GET /captures/{sha256}/download, the same bytes as
// an attachment. Both stream from the archive, a bounded number at once.
func (s *Site) captureRaw(w http.ResponseWriter, r *http.Request) {
	release, err := s.captureSlots.acquire(r)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	defer release()
	c, public, err := s.open(r)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	defer c.Body.Close()
	key := r.PathValue("sha256")
	h := w.Header()
	h.Set("Content-Security-Policy", rawCSP)
	h.Set("X-Frame-Options", "SAMEORIGIN")
	h.Set("X-Content-Type-Options", "nosniff")
	cacheFor(h, public)
	media, _, _ := mime.ParseMediaType(c.ContentType)
	if framed(media) {
		h.Set("Content-Type", c.ContentType) // with its charset: the body is as sent
	} else {
		if media == "" {
			media = "application/octet-stream"
		}
		h.Set("Content-Type", media)
	}
	if strings.HasSuffix(r.URL.Path, "/download") || !framed(media) {
		h.Set("Content-Disposition", `attachment; filename="`+key+extension(media)+`"`)
	}
	h.Set("Content-Length", strconv.FormatInt(c.Size, 10))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		dw := newDeadlineWriter(w)
		_, _ = io.Copy(dw, c.Body)
		dw.close()
	}
}

func extension(media string) string {
	switch media {
	case "application/pdf":
		return ".pdf"
	case "text/html", "application/xhtml+xml":
		return ".html"
	case "text/plain":
		return ".txt"
	case "application/json":
		return ".json"
	}
	return ""
}
