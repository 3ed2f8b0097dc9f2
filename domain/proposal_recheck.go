package domain

import (
	"slices"
	"time"

	"github.com/crossrank/crossrank/events"
)

// Why a re-check found a captured source gone: the reason codes
// EvidenceSourceDead carries. A server error, a refused content type or a
// page grown too large is not one of them: the source may be back at the
// next tick, and nothing is recorded.
const (
	DeadNotFound         = "not_found"        // HTTP 404
	DeadGone             = "gone"             // HTTP 410
	DeadUnreachable      = CaptureUnreachable // DNS or connection failure, after retries
	DeadTimeout          = CaptureTimeout     // no answer in time, after retries
	DeadForbiddenAddress = CaptureForbiddenAddress
)

// DeadReasons lists every reason a source may be recorded dead with.
var DeadReasons = []string{DeadNotFound, DeadGone, DeadUnreachable, DeadTimeout, DeadForbiddenAddress}

// DriftState says how an evidence item's captured source compares with the
// capture since it was last re-checked.
type DriftState string

// The drift states.
const (
	DriftNone    DriftState = "none"    // never found different (or never re-checked)
	DriftChanged DriftState = "changed" // its text changed, or it answered again after being gone
	DriftDead    DriftState = "dead"
)

// Drift returns the state of the item's source at its latest re-check.
func (e Evidence) Drift() DriftState {
	switch {
	case e.SourceDead != nil:
		return DriftDead
	case e.SourceChanged != nil:
		return DriftChanged
	}
	return DriftNone
}

// LastSeenSHA256 returns the hash of the body the source was last recorded
// with: the latest change a re-check found, else the capture; "" when the
// source was never captured.
func (e Evidence) LastSeenSHA256() string {
	switch {
	case e.SourceChanged != nil:
		return e.SourceChanged.SHA256
	case e.Captured != nil:
		return e.Captured.SHA256
	}
	return ""
}

// RecordRecheck records what a scheduled re-check found at a captured
// evidence item's source: a new version of it, or that it is gone (Dead).
type RecordRecheck struct {
	CommandID string // derived from the item and the tick: a retry appends nothing
	Proposal  string
	Evidence  string
	Tick      string    // the schedule's tick: one result per item and tick
	At        time.Time // when the fetch began
	// Dead is one of DeadReasons when the source is gone; "" when it
	// answered, and the fields below describe the response.
	Dead         string
	Status       int // with Dead, the HTTP status that said so, or 0
	FinalURL     string
	ContentType  string
	Size         int64
	SHA256       string
	QuoteFound   bool
	QuoteChecked bool
}

// DecideRecordRecheck yields EvidenceSourceChanged or EvidenceSourceDead
// for a captured evidence item, recorded by a worker and by no user.
//
// It yields nothing when nothing changed since the last record: a source
// gone again, or answering with the body last recorded. Whether a new
// body's text differs from the last one is the worker's to say (it reads
// both); a body whose markup alone changed is never sent here. A source
// that answers again after it was gone is recorded as changed, whatever
// it says: someone should look at it again.
func DecideRecordRecheck(p *Proposal, actor Actor, c RecordRecheck) ([]Change, error) {
	ev, err := workerEvidence(p, actor, c.Evidence)
	if err != nil {
		return nil, err
	}
	if ev.Captured == nil {
		return nil, invalid("evidence", "evidence.not_captured", nil)
	}
	if c.Tick == "" {
		return nil, invalid("tick", "field.required", nil)
	}
	if ev.RecheckTick == c.Tick {
		return nil, ErrRecheckRecorded
	}
	at := c.At.UTC().Truncate(time.Second).Format(time.RFC3339)
	if c.Dead != "" {
		if !slices.Contains(DeadReasons, c.Dead) {
			return nil, invalid("dead", "evidence.dead_reason", Args{"reason": c.Dead})
		}
		if c.Status != 0 && (c.Status < 100 || c.Status > 599) {
			return nil, invalid("status", "evidence.capture_response", nil)
		}
		if ev.Drift() == DriftDead {
			return nil, nil
		}
		return one(ProposalID(p.ID), &events.EvidenceSourceDead{EvidenceID: ev.EvidenceID, URL: ev.SourceURL,
			Reason: c.Dead, Status: c.Status, CheckedAt: at, Tick: c.Tick}), nil
	}
	if err := checkFetched(c.SHA256, c.FinalURL, c.ContentType, c.Status, c.Size); err != nil {
		return nil, err
	}
	if ev.Drift() != DriftDead && c.SHA256 == ev.LastSeenSHA256() {
		return nil, nil
	}
	return one(ProposalID(p.ID), &events.EvidenceSourceChanged{EvidenceID: ev.EvidenceID, URL: ev.SourceURL,
		FinalURL: c.FinalURL, Status: c.Status, ContentType: c.ContentType, Size: c.Size, SHA256: c.SHA256,
		CheckedAt: at, QuoteFound: c.QuoteFound, QuoteChecked: c.QuoteChecked, Tick: c.Tick}), nil
}

// evolveRecheck records a re-check's result on its evidence item: a change
// replaces the version last seen and ends a dead spell; a death keeps the
// last version seen, to compare with when the source answers again.
func (p *Proposal) evolveRecheck(id, tick string, changed *events.EvidenceSourceChanged, dead *events.EvidenceSourceDead) {
	i := slices.IndexFunc(p.Evidence, func(e Evidence) bool { return e.EvidenceID == id })
	if i < 0 {
		return
	}
	e := &p.Evidence[i]
	e.RecheckTick = tick
	if changed != nil {
		e.SourceChanged, e.SourceDead = changed, nil
	} else {
		e.SourceDead = dead
	}
}
