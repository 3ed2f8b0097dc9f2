package site

import (
	"net/http"
	"strconv"

	"github.com/a-h/templ"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/bundle"
	"github.com/crossrank/crossrank/web/i18n"
	"github.com/crossrank/crossrank/web/ui"
)

// An edition's verify page checks its bundle in the reader's browser:
// web/ui/static/verify.js, written from docs/edition-bundle.md and
// sharing no code with domain/bundle, downloads the bundle and the site's
// key and recomputes the edition. The page is plain HTML; only the checks
// need the script, and the page says what they prove and what they do not.

// verifyFile is the page's name under /r/{slug}/editions/{n}/.
const verifyFile = "verify"

// Verify is edition n's verify page, "" when the site writes no bundles or
// the links are a static export's (which serves no key).
func (l linkSet) Verify(slug string, n int) string {
	if l.static || !l.bundles {
		return ""
	}
	return "/r/" + slug + "/editions/" + strconv.Itoa(n) + "/" + verifyFile
}

// verifyView is what the verify page shows.
type verifyView struct {
	ui.Page
	Slug         string
	Number       int
	SnapshotHash string
	EditionHref  string
	BundleHref   string
	KeyHref      string
	// Checks are the checks' names, in the order they are made
	// (docs/edition-bundle.md, "The checks").
	Checks []string
	// Words are the catalog's lines the script writes under the checks
	// (the "verify.d." messages), in the page's language.
	Words map[string]string
}

var verifyChecks = []string{bundle.CheckManifest, bundle.CheckSignature, bundle.CheckFiles, bundle.CheckEvents,
	bundle.CheckSnapshot, bundle.CheckEvidence, bundle.CheckCaptures}

// verify serves GET /r/{slug}/editions/{n}/verify.
func (s *Site) verify(w http.ResponseWriter, r *http.Request) {
	if s.bundles == nil {
		ui.Fail(w, r, domain.ErrNotFound)
		return
	}
	slug, n, hash, err := s.editionOf(r)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	s.servePage(w, r, slug, nil, false, func(p ui.Page, live liveUpdates) (templ.Component, error) {
		l := liveLinks
		l.bundles = true
		return verifyPage(verifyView{Page: p, Slug: slug, Number: n, SnapshotHash: hash, EditionHref: l.Edition(slug, n),
			BundleHref: l.Bundle(slug, n), KeyHref: bundle.WellKnownPath, Checks: verifyChecks,
			Words: i18n.Prefixed(p.Lang, "verify.d.")}, l, live), nil
	})
}
