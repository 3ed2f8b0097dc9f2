package desk

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/ui"
)

// Passages finds an evidence item's quote in an archived copy. The
// capture worker's archive implements it (in cmd), with the quote check's
// own reading of a page.
type Passages interface {
	// Passage returns the text of the copy stored under sha256 with where
	// excerpt stands in it; an error wrapping domain.ErrNotFound when no
	// copy is stored there.
	Passage(ctx context.Context, sha256, excerpt string) (Passage, error)
}

// Passage is an archived copy's text as a reader sees it, with the quote
// located in it.
type Passage struct {
	URL     string    // the address that answered
	Fetched time.Time // when the fetch began
	// Text is the copy's visible text; "" when Checked is false.
	Text string
	// Start and End are the byte offsets of the quote in Text; both -1
	// when it is not there.
	Start, End int
	// Checked says whether the copy had text to search (not a PDF…).
	Checked bool
}

// passageCSP keeps the view of a copy as inert as the copy itself
// (site's captureCSP): the text is escaped, and a sandbox with nothing
// allowed guards against any slip. Only the page's inline style applies.
const passageCSP = "sandbox; default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

// passageView is the model of the highlighted copy.
type passageView struct {
	ui.Page
	Banner  string // what this is: whose copy, fetched when
	Claim   string
	Before  string // the text before the quote (all of it when not found)
	Match   string // the quote as the page wrote it; "" when not found
	After   string
	Status  string // "found", "not-found" or "unchecked"
	Note    string // the status in words
	Version string // "captured" or "changed"
}

// PassagePath is the highlighted copy of an evidence item's source: the
// capture it was checked against, or with changed set the newer version a
// re-check found.
func PassagePath(proposal, evidence string, changed bool) string {
	p := "/desk/proposals/" + url.PathEscape(proposal) + "/evidence/" + url.PathEscape(evidence) + "/passage"
	if changed {
		p += "?version=changed"
	}
	return p
}

// servePassage serves GET /desk/proposals/{id}/evidence/{evidence}/passage:
// the archived copy's text with the quoted passage marked, for signed-in
// desk users only (a draft's evidence is not public).
func (d *Desk) servePassage(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	id, evID := r.PathValue("id"), r.PathValue("evidence")
	if d.passages == nil || !events.ValidID(id) {
		ui.Fail(w, r, domain.ErrNotFound)
		return
	}
	det, err := d.read.Proposal(ctx, id)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	i := slices.IndexFunc(det.Evidence, func(e projections.EvidenceView) bool { return e.ID == evID })
	if i < 0 || det.Evidence[i].Capture.State != domain.CaptureDone {
		ui.Fail(w, r, domain.ErrNotFound)
		return
	}
	e := det.Evidence[i]
	sha, version := e.Capture.SHA256, "captured"
	if r.URL.Query().Get("version") == "changed" {
		if e.Drift.State != domain.DriftChanged {
			ui.Fail(w, r, domain.ErrNotFound)
			return
		}
		sha, version = e.Drift.SHA256, "changed"
	}
	ps, err := d.passages.Passage(ctx, sha, e.Excerpt)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	p := ui.PageOf(r, "", "dashboard")
	v := passageView{Page: p, Claim: e.Claim.In(p.Lang), Version: version,
		Banner: p.T("desk.passage.banner", ps.URL, p.DateTime(ps.Fetched))}
	switch {
	case !ps.Checked:
		v.Status, v.Note = "unchecked", p.T("desk.capture.quote_unchecked")
	case ps.Start < 0:
		v.Status, v.Note, v.Before = "not-found", p.T("desk.capture.quote_not_found"), ps.Text
	default:
		v.Status, v.Note = "found", p.T("desk.passage.found")
		v.Before, v.Match, v.After = ps.Text[:ps.Start], ps.Text[ps.Start:ps.End], ps.Text[ps.End:]
	}
	w.Header().Set("Content-Security-Policy", passageCSP)
	ui.Render(w, r, http.StatusOK, passagePage(v))
}
