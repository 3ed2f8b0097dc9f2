package site

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/url"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/ui"
)

// validator says how a public response is validated.
type validator struct {
	mark  projections.EditionMark
	lang  string // "" for the JSON API, whose bodies hold both languages
	daily bool   // the body marks evidence as stale by today's date
	kind  string // the resource ("page", "api", "feed"), so two views never share a tag
	// query is the canonical query of the response: the parameters its
	// handler reads, valid values only, defaults dropped, sorted by name
	// (url.Values.Encode). Anything else in the URL — utm_source, a typo,
	// the lang switch — changes neither the tag nor the cached body.
	query url.Values
	// extra versions what a live body shows besides the edition (an
	// entry's vendor statements, which change between editions); "":
	// nothing.
	extra string
}

// etag is the validator of a public response: a hash of the ranking's
// edition mark (slug, newest edition, the stream sequence of that edition,
// the definition's sequence), the language, the build, the path and the
// canonical query, and today's date for bodies that show staleness. A
// vote, a draft or a new user changes none of these, so the tag changes
// exactly when an edition is published (or the ranking's definition is).
func (c validator) etag(now time.Time, path string) string {
	h := sha256.New()
	for _, s := range []string{c.kind, c.mark.Key(), c.lang, buildStamp(), path, c.query.Encode(), c.extra} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	if c.daily {
		h.Write([]byte(now.UTC().Format(time.DateOnly)))
	}
	tag := `"` + hex.EncodeToString(h.Sum(nil)[:12]) + `"`
	if c.lang != "" {
		// HTML carries a per-response CSP nonce, so equal tags mean equal
		// content, not equal bytes.
		return "W/" + tag
	}
	return tag
}

// coded reports whether the response is served from the page cache,
// which sends it gzipped to a request that accepts gzip (see
// cachedBody.serve): pages and API answers; feeds are written per request.
func (c validator) coded() bool { return c.kind == "page" || c.kind == "api" }

// lastModified is the time of the newest edition (zero before the first).
func (c validator) lastModified() time.Time {
	t, err := time.Parse(time.RFC3339Nano, c.mark.PublishedAt)
	if err != nil {
		return time.Time{}
	}
	return t.Truncate(time.Second)
}

// fresh sets the validators and caching headers of a public response
// and answers 304 Not Modified when the client's copy is current; it
// reports whether it did. Signed-in readers get no validators: their pages
// show who is signed in and are never stored (see render).
func (s *Site) fresh(w http.ResponseWriter, r *http.Request, c validator) bool {
	h := w.Header()
	h.Set("Cache-Control", "public, no-cache")
	vary := func() {
		if c.lang != "" {
			h.Add("Vary", "Cookie")
			h.Add("Vary", "Accept-Language")
		}
	}
	if c.kind != "page" {
		vary() // pages get theirs from render
	}
	if httpx.User(r.Context()) != nil {
		return false
	}
	tag := c.etag(httpx.Now(r.Context()), r.URL.Path)
	if c.coded() && acceptsGzip(r) {
		tag = gzipTag(tag)
	}
	h.Set("ETag", tag)
	lm := c.lastModified()
	if !lm.IsZero() && !c.daily {
		h.Set("Last-Modified", lm.UTC().Format(http.TimeFormat))
	}
	if !notModified(r, tag, lm, c.daily) {
		return false
	}
	// The stored copy keeps the headers it came with (its nonce included);
	// a 304 only refreshes the ones it sends.
	h.Del("Content-Security-Policy")
	if c.kind == "page" {
		vary()
	}
	if c.coded() {
		h.Add("Vary", "Accept-Encoding")
	}
	w.WriteHeader(http.StatusNotModified)
	return true
}

// notModified applies RFC 9110 §13.1: If-None-Match wins over
// If-Modified-Since; a weak comparison is enough for GET.
func notModified(r *http.Request, tag string, lm time.Time, daily bool) bool {
	if inm := r.Header.Get("If-None-Match"); inm != "" {
		if strings.TrimSpace(inm) == "*" {
			return true
		}
		want := strings.TrimPrefix(tag, "W/")
		return slices.ContainsFunc(strings.Split(inm, ","), func(t string) bool {
			return strings.TrimPrefix(strings.TrimSpace(t), "W/") == want
		})
	}
	if ims := r.Header.Get("If-Modified-Since"); ims != "" && !lm.IsZero() && !daily {
		t, err := http.ParseTime(ims)
		return err == nil && !lm.After(t)
	}
	return false
}

// buildStamp changes when the program does: the VCS revision when the
// binary records one, and the embedded assets' hashes, so a deploy with new
// pages never answers 304 for an old page.
var buildStamp = sync.OnceValue(func() string {
	var parts []string
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" || s.Key == "vcs.modified" {
				parts = append(parts, s.Value)
			}
		}
	}
	parts = append(parts, ui.AssetVersions()...)
	return strings.Join(parts, ";")
})
