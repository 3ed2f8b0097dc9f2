package domain

import (
	"slices"
	"time"

	"github.com/crossrank/crossrank/events"
)

// Why a capture failed: the reason codes EvidenceCaptureFailed carries.
// Each names one way a fetch is refused or goes wrong; the capture worker
// derives it from the fetcher's error.
const (
	CaptureScheme           = "scheme"             // not an http(s) URL with a host
	CaptureForbiddenAddress = "forbidden_address"  // a private, loopback, metadata… address
	CaptureTooManyRedirects = "too_many_redirects" // more than five
	CaptureTimeout          = "timeout"            // the whole fetch took too long
	CaptureTooLarge         = "too_large"          // body over the limit after decompression
	CaptureContentType      = "content_type"       // not HTML, plain text, JSON or PDF
	CaptureEncoding         = "encoding"           // a Content-Encoding other than gzip
	CaptureStatus           = "status"             // the server did not answer 2xx
	CaptureUnreachable      = "unreachable"        // DNS, connection or protocol failure
)

// CaptureReasons lists every reason a capture may fail with.
var CaptureReasons = []string{CaptureScheme, CaptureForbiddenAddress, CaptureTooManyRedirects, CaptureTimeout,
	CaptureTooLarge, CaptureContentType, CaptureEncoding, CaptureStatus, CaptureUnreachable}

// CaptureState says whether an evidence item's source has been captured.
type CaptureState string

// The capture states. An item without a source URL stays CaptureNone.
const (
	CaptureNone   CaptureState = "none" // no result yet, or nothing to capture
	CaptureDone   CaptureState = "captured"
	CaptureFailed CaptureState = "failed"
)

// Capture returns the state of the evidence item's capture.
func (e Evidence) Capture() CaptureState {
	switch {
	case e.Captured != nil:
		return CaptureDone
	case e.CaptureFailure != nil:
		return CaptureFailed
	}
	return CaptureNone
}

// NeedsCapture reports whether the item cites a URL whose capture has no
// result yet: what the capture worker works on.
func (e Evidence) NeedsCapture() bool {
	return e.SourceURL != "" && e.Capture() == CaptureNone
}

// QuoteNotFound returns the ids of the evidence items whose excerpt was
// searched in the capture and not found there, in order. It does not block
// the quorum by itself; reviewers should know.
func (p *Proposal) QuoteNotFound() []string {
	var out []string
	for _, e := range p.Evidence {
		if c := e.Captured; c != nil && c.QuoteChecked && !c.QuoteFound {
			out = append(out, e.EvidenceID)
		}
	}
	return out
}

// RecordCapture records what the capture worker found at an evidence
// item's source: the archived response, or why there is none (Failure).
type RecordCapture struct {
	CommandID string // derived from the evidence item, so a retry after a crash appends nothing
	Proposal  string
	Evidence  string    // the evidence id
	At        time.Time // when the fetch began
	// Attempts is how many fetches the worker made before it gave up,
	// with Failure: 1 for a failure it does not retry. 0 leaves it out.
	Attempts int
	// Failure is one of CaptureReasons when the page could not be
	// captured; "" when it was, and the fields below describe it.
	Failure      string
	FinalURL     string
	Status       int
	ContentType  string
	Size         int64
	SHA256       string // hex, of the body
	QuoteFound   bool
	QuoteChecked bool
}

// DecideRecordCapture yields EvidenceCaptured or EvidenceCaptureFailed for
// an evidence item with a source URL and no capture result yet: one result
// per item, ever, recorded by the worker and by no user. It holds in any
// status, a closed proposal's included: the capture is a fact about the
// source, not an edit of the proposal.
func DecideRecordCapture(p *Proposal, actor Actor, c RecordCapture) ([]Change, error) {
	ev, err := workerEvidence(p, actor, c.Evidence)
	if err != nil {
		return nil, err
	}
	if ev.SourceURL == "" {
		return nil, invalid("evidence", "evidence.no_source_url", nil)
	}
	if ev.Capture() != CaptureNone {
		return nil, ErrCaptureRecorded
	}
	at := c.At.UTC().Truncate(time.Second).Format(time.RFC3339)
	if c.Failure != "" {
		if !slices.Contains(CaptureReasons, c.Failure) {
			return nil, invalid("failure", "evidence.capture_reason", Args{"reason": c.Failure})
		}
		if c.Attempts < 0 {
			return nil, invalid("attempts", "evidence.capture_attempts", nil)
		}
		return one(ProposalID(p.ID), &events.EvidenceCaptureFailed{
			EvidenceID: ev.EvidenceID, URL: ev.SourceURL, Reason: c.Failure, At: at, Attempts: c.Attempts}), nil
	}
	if err := checkFetched(c.SHA256, c.FinalURL, c.ContentType, c.Status, c.Size); err != nil {
		return nil, err
	}
	return one(ProposalID(p.ID), &events.EvidenceCaptured{
		EvidenceID: ev.EvidenceID, URL: ev.SourceURL, FinalURL: c.FinalURL, Status: c.Status,
		ContentType: c.ContentType, Size: c.Size, SHA256: c.SHA256, FetchedAt: at,
		QuoteFound: c.QuoteFound, QuoteChecked: c.QuoteChecked,
	}), nil
}

// workerEvidence is the evidence item a worker's result is about: only the
// system records one, on a proposal that exists and holds the item. Capture
// and re-check share it so that both refuse the same things in the same order.
func workerEvidence(p *Proposal, actor Actor, id string) (Evidence, error) {
	if !actor.IsSystem() {
		return Evidence{}, ErrCaptureBySystem
	}
	if !p.Exists() {
		return Evidence{}, ErrProposalMissing
	}
	ev, ok := p.EvidenceByID(id)
	if !ok {
		return Evidence{}, ErrUnknownEvidence
	}
	return ev, nil
}

// checkFetched checks the description of a response a worker fetched, for a
// capture or a re-check alike: the body's hash, where the fetch ended, what
// the server said it was, a real status and a size.
func checkFetched(sha256, finalURL, contentType string, status int, size int64) error {
	if !hexHash.MatchString(sha256) {
		return invalid("sha256", "field.hex_sha256", nil)
	}
	if err := CheckURL("final_url", finalURL); err != nil || finalURL == "" {
		return invalid("final_url", "field.url_scheme", nil)
	}
	if err := checkText("content_type", contentType, MaxShortText, true); err != nil {
		return err
	}
	if status < 100 || status > 599 || size < 0 {
		return invalid("status", "evidence.capture_response", nil)
	}
	return nil
}

// evolveCapture records a capture result on its evidence item. The first
// result stands: a later one (which DecideRecordCapture never yields, but
// another writer to the stream might) changes nothing, and neither does a
// result for an item the revision no longer holds.
func (p *Proposal) evolveCapture(id string, ok *events.EvidenceCaptured, failed *events.EvidenceCaptureFailed) {
	i := slices.IndexFunc(p.Evidence, func(e Evidence) bool { return e.EvidenceID == id })
	if i < 0 || p.Evidence[i].Capture() != CaptureNone {
		return
	}
	p.Evidence[i].Captured, p.Evidence[i].CaptureFailure = ok, failed
}
