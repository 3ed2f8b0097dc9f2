package site

import (
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/bundle"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/ui"
)

// An edition's bundle (domain/bundle, docs/edition-bundle.md) is one zip
// with what recomputes the edition offline, signed by the site's key. It
// is written from the event store as it is sent, never whole in memory,
// and is the same bytes on every request while the key stays the same.

// bundleFile is the bundle's name under /r/{slug}/editions/{n}/.
const bundleFile = "bundle"

// bundleStreams bounds the bundles written at once: each replays the
// stream up to its edition, and an anonymous reader must not be able to
// start more.
const bundleStreams = 2

var errBundlesBusy = &httpx.RetryLater{
	Err:   fmt.Errorf("site: too many bundles being written: %w", events.ErrUnavailable),
	After: 5 * time.Second,
}

// Bundle is edition n's bundle, "" when the site writes none.
func (l linkSet) Bundle(slug string, n int) string {
	if !l.bundles {
		return ""
	}
	return l.Download(slug, n, bundleFile)
}

// bundle serves GET /r/{slug}/editions/{n}/bundle as an attachment.
func (s *Site) bundle(w http.ResponseWriter, r *http.Request) {
	n, err := strconv.Atoi(r.PathValue("n"))
	if s.bundles == nil || err != nil || n < 1 {
		ui.Fail(w, r, domain.ErrNotFound)
		return
	}
	select {
	case s.bundleSlots <- struct{}{}:
		defer func() { <-s.bundleSlots }()
	default:
		ui.Fail(w, r, errBundlesBusy)
		return
	}
	b, err := s.bundles.Prepare(r.Context(), r.PathValue("slug"), n)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/zip")
	h.Set("Content-Disposition", `attachment; filename="`+b.Name()+`"`)
	h.Set("Cache-Control", "public, max-age=86400") // an edition never changes; a new key is rare
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodHead {
		return
	}
	if err := b.WriteTo(r.Context(), w); err != nil {
		// The status is sent: break the connection, so the reader sees
		// a failed download and not a short file.
		s.log.Warn("bundle: writing failed", "path", r.URL.Path, "err", err)
		panic(http.ErrAbortHandler)
	}
}

// signingKey serves GET /.well-known/crossrank-signing-key: the key that
// signs the bundles, as a JWK set (RFC 7517).
func (s *Site) signingKey(w http.ResponseWriter, r *http.Request) {
	if s.bundles == nil {
		ui.Fail(w, r, domain.ErrNotFound)
		return
	}
	body, err := marshalJSON(bundle.KeySet{Keys: []bundle.JWK{s.bundles.Key()}})
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/jwk-set+json")
	h.Set("Cache-Control", "public, max-age=3600")
	h.Set("Access-Control-Allow-Origin", "*") // a public key, for any verifier
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(body)
	}
}
