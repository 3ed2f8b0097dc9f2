package site

import (
	"bytes"
	"context"
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
// is the same bytes on every request while the key stays the same, so it
// is written once from the event store and kept (bundle_cache.go).

// bundleFile is the bundle's name under /r/{slug}/editions/{n}/.
const bundleFile = "bundle"

// bundleStreams bounds the bundles written at once: each replays the
// stream up to its edition, and an anonymous reader must not be able to
// start more. A kept bundle takes no slot.
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

// bundle serves GET /r/{slug}/editions/{n}/bundle as an attachment,
// from the bundles kept (bundle_cache.go), with a strong ETag: a reader
// that has it already is answered 304, a range may be asked for (416 as a
// problem, as the archives answer it), and a verifier on another origin
// may read it (CORS: the bundle is as public as the edition).
func (s *Site) bundle(w http.ResponseWriter, r *http.Request) {
	n, err := strconv.Atoi(r.PathValue("n"))
	if s.bundles == nil || err != nil || n < 1 {
		ui.Fail(w, r, domain.ErrNotFound)
		return
	}
	slug := r.PathValue("slug")
	b, err := s.bundleCache.get(r.Context(), bundleKey{slug, n}, func() (string, []byte, error) {
		return s.writeBundle(context.WithoutCancel(r.Context()), slug, n)
	})
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/zip")
	h.Set("Content-Disposition", `attachment; filename="`+b.name+`"`)
	h.Set("Cache-Control", "public, max-age=86400") // an edition never changes; a new key is rare
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("ETag", b.etag)
	allowArchiveReaders(h)
	http.ServeContent(&rangeRefusal{ResponseWriter: w, r: r}, r, "", time.Time{}, bytes.NewReader(b.body))
}

// writeBundle writes edition n's bundle whole, while one of bundleStreams
// slots is free: the waiting requests share it, and it outlives the
// request that started it.
func (s *Site) writeBundle(ctx context.Context, slug string, n int) (string, []byte, error) {
	select {
	case s.bundleSlots <- struct{}{}:
		defer func() { <-s.bundleSlots }()
	default:
		return "", nil, errBundlesBusy
	}
	b, err := s.bundles.Prepare(ctx, slug, n)
	if err != nil {
		return "", nil, err
	}
	var buf bytes.Buffer
	if err := b.WriteTo(ctx, &buf); err != nil {
		return "", nil, err
	}
	return b.Name(), buf.Bytes(), nil
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
