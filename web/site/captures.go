package site

import (
	"bytes"
	"context"
	"fmt"
	"html"
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
	"golang.org/x/net/html/atom"

	xhtml "golang.org/x/net/html"
)

// Captures reads the archived copies of cited pages, by the hex SHA-256
// of their body. The capture worker's archive implements it (in cmd).
type Captures interface {
	// Get returns the capture stored under sha256; an error wrapping
	// ErrNoCapture when there is none.
	Get(ctx context.Context, sha256 string) (Capture, error)
}

// Capture is one archived response as readers are shown it.
type Capture struct {
	Body        []byte
	ContentType string    // the original response's Content-Type
	Fetched     time.Time // when the fetch began
	URL         string    // the address that answered
}

// ErrNoCapture says no capture is stored under a key.
var ErrNoCapture = fmt.Errorf("site: no such capture: %w", domain.ErrNotFound)

var captureKey = regexp.MustCompile(`^[0-9a-f]{64}$`)

// captureCSP keeps an archived page inert: sandbox (no scripts, no forms,
// a unique origin, so no cookies or storage of the site's), and nothing
// loaded from elsewhere, so reading a copy tells no third party. Inline
// styles stay, for the banner and the page's own.
const captureCSP = "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:; " +
	"frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

// capture serves GET /captures/{sha256}: the archived body, inert. HTML
// gets a banner saying what it is; other text keeps its type; anything
// else (a PDF) is a download, since a sandboxed viewer would not show it.
func (s *Site) capture(w http.ResponseWriter, r *http.Request) {
	key := r.PathValue("sha256")
	if s.captures == nil || !captureKey.MatchString(key) {
		ui.Fail(w, r, ErrNoCapture)
		return
	}
	c, err := s.captures.Get(r.Context(), key)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	h := w.Header()
	h.Set("Content-Security-Policy", captureCSP)
	h.Set("X-Content-Type-Options", "nosniff")
	// The body never changes under its hash; the banner follows the
	// reader's language.
	h.Set("Cache-Control", "public, max-age=86400")
	h.Set("Vary", "Cookie, Accept-Language")
	body := c.Body
	media, _, _ := mime.ParseMediaType(c.ContentType)
	switch {
	case media == "text/html" || media == "application/xhtml+xml":
		h.Set("Content-Type", c.ContentType)
		body = withBanner(body, bannerHTML(httpx.Lang(r.Context()), c))
	case strings.HasPrefix(media, "text/") || media == "application/json":
		h.Set("Content-Type", c.ContentType)
	default:
		if media == "" {
			media = "application/octet-stream"
		}
		h.Set("Content-Type", media)
		h.Set("Content-Disposition", `attachment; filename="`+key+extension(media)+`"`)
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(body)
	}
}

func extension(media string) string {
	if media == "application/pdf" {
		return ".pdf"
	}
	return ""
}

// bannerHTML says, in lang, that the page is an archived copy, of what and
// when. It is ASCII only (other characters as character references), so
// it reads right whatever charset the page is in.
func bannerHTML(lang string, c Capture) string {
	text := i18n.T(lang, "capture.banner", c.URL, i18n.DateTime(lang, c.Fetched))
	var b strings.Builder
	b.WriteString(`<div role="note" data-testid="capture-banner" lang="` + lang + `" style="all:initial;display:block;` +
		`box-sizing:border-box;width:100%;padding:.6em 1em;background:#fff8c5;color:#1f2328;` +
		`border-bottom:2px solid #d4a72c;font:14px/1.4 system-ui,sans-serif">`)
	for _, r := range html.EscapeString(text) {
		if r < 0x80 {
			b.WriteRune(r)
		} else {
			fmt.Fprintf(&b, "&#x%X;", r)
		}
	}
	b.WriteString("</div>")
	return b.String()
}

// withBanner puts banner at the top of the page's body: just after its
// <body> tag, else before its first element that is not the head's, else
// first of all.
func withBanner(page []byte, banner string) []byte {
	at := bannerOffset(page)
	out := make([]byte, 0, len(page)+len(banner))
	out = append(out, page[:at]...)
	out = append(out, banner...)
	return append(out, page[at:]...)
}

func bannerOffset(page []byte) int {
	z := xhtml.NewTokenizer(bytes.NewReader(page))
	offset := 0
	for {
		tt := z.Next()
		if tt == xhtml.ErrorToken {
			return 0
		}
		n := len(z.Raw())
		if tt == xhtml.StartTagToken || tt == xhtml.SelfClosingTagToken {
			name, _ := z.TagName()
			switch atom.Lookup(name) {
			case atom.Body:
				return offset + n
			case atom.Html, atom.Head, atom.Meta, atom.Title, atom.Link, atom.Style, atom.Base, atom.Script, atom.Noscript:
			default:
				return offset
			}
		}
		offset += n
	}
}
