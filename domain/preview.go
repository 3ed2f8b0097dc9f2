package domain

import (
	"crypto/subtle"
	"slices"
	"time"

	"github.com/crossrank/crossrank/events"
)

// An embargoed preview shows people without accounts (a vendor, a partner
// newsroom) the next edition of chosen cross-validated proposals before it
// is published: the link's token is a 256-bit secret shown once to the
// publisher, and only its SHA-256 is kept. A publisher revokes it; it
// expires by itself. It never changes a rank and publishes nothing.

// The statuses of a preview.
const (
	PreviewActive  = "active"
	PreviewExpired = "expired"
	PreviewRevoked = "revoked"
)

// Preview limits.
const (
	// PreviewMaxLife is how far ahead a preview may expire: an embargo is
	// days or weeks, and a forgotten link should not outlive it by months.
	PreviewMaxLife = 90 * 24 * time.Hour
	// PreviewMaxVendors bounds the users one preview is sent to.
	PreviewMaxVendors = 50
	// PreviewOpenFold is the window openings fold in: at most one
	// PreviewOpened per preview in it, so a reload storm writes one event
	// a minute, not thousands.
	PreviewOpenFold = time.Minute
)

var (
	ErrPreviewMissing = kindErr(ErrNotFound, "preview.missing")
	ErrPreviewRevoked = kindErr(ErrState, "preview.revoked")
	// ErrPreviewClosed: the link is revoked, expired or unknown; the page
	// answers 404 alike, so the answer tells a guesser nothing.
	ErrPreviewClosed = kindErr(ErrNotFound, "preview.closed")
)

// PreviewLink is a preview's state: its link, whom it was sent to, its openings.
type PreviewLink struct {
	ID         string
	Created    events.PreviewCreated
	By         string
	At         time.Time
	ExpiresAt  time.Time
	Revoked    bool
	Openings   int       // recorded openings (folded, see PreviewOpenFold)
	LastOpened time.Time // zero: never opened
	Seq        uint64
}

// Exists reports whether the preview has been created.
func (p *PreviewLink) Exists() bool { return p != nil && p.ID != "" }

// Status returns the preview's status at now.
func (p *PreviewLink) Status(now time.Time) string {
	switch {
	case p.Revoked:
		return PreviewRevoked
	case !now.Before(p.ExpiresAt):
		return PreviewExpired
	}
	return PreviewActive
}

// Opens reports whether a link whose token hashes to tokenHash opens the
// preview at now. The hashes compare in constant time.
func (p *PreviewLink) Opens(tokenHash string, now time.Time) bool {
	return p.Exists() && subtle.ConstantTimeCompare([]byte(tokenHash), []byte(p.Created.TokenHash)) == 1 &&
		p.Status(now) == PreviewActive
}

// Evolve applies one of the preview's events.
func (p *PreviewLink) Evolve(e events.Event) {
	switch d := e.Data.(type) {
	case *events.PreviewCreated:
		p.ID, p.Created, p.By, p.At = e.Subject, *d, e.Actor, e.Time
		p.ExpiresAt, _ = time.Parse(time.RFC3339, d.ExpiresAt)
	case *events.PreviewRevoked:
		p.Revoked = true
	case *events.PreviewOpened:
		p.Openings++
		p.LastOpened = e.Time
	}
	p.Seq = e.Sequence
}

func (p *PreviewLink) clone() *PreviewLink {
	c := *p
	return &c
}

// PreviewAggregate returns the aggregate of a preview.
func PreviewAggregate(id string) events.Aggregate {
	return events.Aggregate{Kind: events.KindPreview, ID: id}
}

// CreatePreview is a publisher's new preview.
type CreatePreview struct {
	CommandID string // the caller's idempotency key; also the preview's id
	Ranking   string
	Proposals []string
	ExpiresAt string // RFC 3339
	Note      string
	Vendors   []string
	TokenHash string // hex SHA-256 of the link's token, drawn by the caller
}

// CheckPreview checks a new preview's fields before anything is loaded.
func CheckPreview(c CreatePreview, now time.Time) error {
	if !events.ValidID(c.CommandID) {
		return invalid("id", "field.slug", nil)
	}
	if !events.ValidID(c.Ranking) {
		return ErrRankingMissing
	}
	if len(c.Proposals) == 0 {
		return invalid("proposals", "preview.no_proposals", nil)
	}
	for _, id := range c.Proposals {
		if !events.ValidID(id) {
			return invalid("proposals", "preview.not_cross_validated", Args{"proposal": id})
		}
	}
	at, err := time.Parse(time.RFC3339, c.ExpiresAt)
	if err != nil {
		return invalid("expires_at", "preview.bad_expiry", Args{"days": int(PreviewMaxLife / (24 * time.Hour))})
	}
	if !at.After(now) || at.Sub(now) > PreviewMaxLife {
		return invalid("expires_at", "preview.bad_expiry", Args{"days": int(PreviewMaxLife / (24 * time.Hour))})
	}
	if err := checkText("note", c.Note, MaxShortText, false); err != nil {
		return err
	}
	if len(c.Vendors) > PreviewMaxVendors {
		return invalid("vendors", "preview.too_many_vendors", Args{"max": PreviewMaxVendors})
	}
	for _, v := range c.Vendors {
		if CheckUsername(v) != nil {
			return invalid("vendors", "preview.unknown_vendor", Args{"user": v})
		}
	}
	if !hexHash.MatchString(c.TokenHash) {
		return invalid("token_hash", "field.hex_sha256", nil)
	}
	return nil
}

// DecidePreview lets a publisher create a preview of chosen proposals of
// one ranking, each cross-validated now; vendors are the users (existing)
// it is sent to. Whether the chosen proposals make an edition together is
// the caller's to check (PreviewEdition), as the page computes it anew at
// each opening.
func DecidePreview(pv *PreviewLink, chosen []*Proposal, vendors []*User, a Actor, c CreatePreview, now time.Time) ([]Change, error) {
	if err := a.require(RolePublisher); err != nil {
		return nil, err
	}
	if err := CheckPreview(c, now); err != nil {
		return nil, err
	}
	if pv.Exists() {
		return nil, invalid("id", "preview.exists", nil)
	}
	var entries []string
	for i, p := range chosen {
		if !p.Exists() || p.Ranking != c.Ranking || p.Status != StatusCrossValidated {
			return nil, invalid("proposals", "preview.not_cross_validated", Args{"proposal": c.Proposals[i]})
		}
		if !p.IsMethodology() {
			entries = append(entries, p.Entry)
		}
	}
	for i, u := range vendors {
		if !u.Exists() {
			return nil, invalid("vendors", "preview.unknown_vendor", Args{"user": c.Vendors[i]})
		}
	}
	at, _ := time.Parse(time.RFC3339, c.ExpiresAt)
	return one(PreviewAggregate(c.CommandID), &events.PreviewCreated{Ranking: c.Ranking,
		Proposals: slices.Compact(slices.Sorted(slices.Values(c.Proposals))),
		Entries:   orNone(slices.Compact(slices.Sorted(slices.Values(entries)))),
		ExpiresAt: at.UTC().Format(time.RFC3339), Note: c.Note,
		Vendors: slices.Compact(slices.Sorted(slices.Values(c.Vendors))), TokenHash: c.TokenHash}), nil
}

func orNone(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// DecideRevokePreview lets a publisher revoke a preview; revoking it again
// is refused, so a double submit says what happened.
func DecideRevokePreview(pv *PreviewLink, a Actor) ([]Change, error) {
	if err := a.require(RolePublisher); err != nil {
		return nil, err
	}
	if !pv.Exists() {
		return nil, ErrPreviewMissing
	}
	if pv.Revoked {
		return nil, ErrPreviewRevoked
	}
	return one(PreviewAggregate(pv.ID), &events.PreviewRevoked{}), nil
}

// DecideOpenPreview records an opening of the link whose token hashes to
// tokenHash: nothing when the last recorded opening is less than
// PreviewOpenFold ago (folded); ErrPreviewClosed when the link does not
// open the preview.
func DecideOpenPreview(pv *PreviewLink, tokenHash string, now time.Time) ([]Change, error) {
	if !pv.Opens(tokenHash, now) {
		return nil, ErrPreviewClosed
	}
	if !pv.LastOpened.IsZero() && now.Sub(pv.LastOpened) < PreviewOpenFold {
		return nil, nil
	}
	return one(PreviewAggregate(pv.ID), &events.PreviewOpened{}), nil
}
