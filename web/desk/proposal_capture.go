package desk

import (
	"net/url"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/i18n"
	"github.com/crossrank/crossrank/web/ui"
)

// captureRow is what the capture worker recorded about an evidence item's
// source, in words: pending until a result arrives, then captured (with
// the archived copy and the quote check) or failed (with the reason, and
// how many attempts the worker made when it retried).
type captureRow struct {
	State  string // "pending", "captured" or "failed"
	Text   string // "capturing…", "captured 2 March 2026", "capture failed: …", "gave up after 12 attempts: …"
	Href   string // the archived copy, with State "captured"
	Quote  string // "found", "not-found" or "unchecked", with State "captured"
	QuoteT string // the quote check in words
	// Passage is the copy's text with the quote marked, with State
	// "captured" when the desk can show it and the copy has text; "" else.
	Passage  string
	PassageT string
}

// captureOf describes the capture of an evidence item whose source is an
// http(s) URL; nil for any other item, which shows no capture at all.
func captureOf(p ui.Page, e projections.EvidenceView) *captureRow {
	if sourceHref(e.SourceURL) == "" {
		return nil
	}
	c := e.Capture
	switch c.State {
	case domain.CaptureDone:
		row := &captureRow{State: "captured", Href: CapturePath(c.SHA256),
			Text: p.T("desk.capture.captured", p.Date(parseTime(c.At)))}
		switch {
		case !c.QuoteChecked:
			row.Quote, row.QuoteT = "unchecked", p.T("desk.capture.quote_unchecked")
		case c.QuoteFound:
			row.Quote, row.QuoteT = "found", p.T("desk.capture.quote_found")
		default:
			row.Quote, row.QuoteT = "not-found", p.T("desk.capture.quote_not_found")
		}
		return row
	case domain.CaptureFailed:
		// One attempt is a failure the worker does not retry (a 404, a
		// private address), and a failure recorded before the worker
		// counted them has none: both read as they always did.
		if c.Attempts > 1 {
			return &captureRow{State: "failed", Text: p.T("desk.capture.gave_up", c.Attempts, sourceReason(p, c.Reason))}
		}
		return &captureRow{State: "failed", Text: p.T("desk.capture.failed", sourceReason(p, c.Reason))}
	}
	return &captureRow{State: "pending", Text: p.T("desk.capture.pending")}
}

// sourceReason puts why a capture failed, or why a re-check found a source
// gone, into words; an unknown code (a newer worker's) shows as it is.
func sourceReason(p ui.Page, code string) string {
	key := "desk.source.reason." + code
	if !i18n.Has(key) {
		return code
	}
	return p.T(key)
}

// CapturePath is the archived copy of a body with the given hex SHA-256.
// The domain accepts only hex digests, and the path segment is escaped
// anyway; the link goes through templ's URL sanitizer, not around it.
func CapturePath(sha256 string) string { return "/captures/" + url.PathEscape(sha256) }
