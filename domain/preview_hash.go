package domain

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"slices"
)

// A preview's hash covers what the edition would contain and what it
// builds on, never the stream's position: a capture recorded, a comment,
// a vote that leaves a proposal cross-validated, or anything outside the
// edition leaves it as it was, so publishing never races background work.
// The stored hash of an EditionPublished is only recorded (verify and
// bundles recompute the snapshot hash, not this one), so old editions
// keep verifying whatever formula their preview used.

// ProposalPin is a chosen proposal at the revision a preview showed.
type ProposalPin struct {
	ID       string `json:"id"`
	Revision int    `json:"revision"`
}

// PreviewPins is what a preview's hash pins that a refused publish can
// name: the ranking, the edition it would have been and each proposal's
// revision.
type PreviewPins struct {
	Ranking   string
	Number    int
	Proposals []ProposalPin // sorted by id
}

// hashVersion is hashed first, so a later formula never collides with this one.
const hashVersion = 2

// previewHash returns the hash of pv (its Pins, SnapshotHash, NewEntries,
// Changes and Methodology set) on the edition whose snapshot hash is
// baseline ("" before the first edition). The number pins the baseline
// too: a published edition never changes.
func previewHash(pv *EditionPreview, baseline string) string {
	h := sha256.New()
	enc := json.NewEncoder(h)
	// Plain data into a hash: encoding cannot fail, and sha256 never does.
	_ = enc.Encode(struct {
		Version    int           `json:"v"`
		Ranking    string        `json:"ranking"`
		Number     int           `json:"number"`
		Baseline   string        `json:"baseline"`
		Proposals  []ProposalPin `json:"proposals"`
		NewEntries int           `json:"new_entries"`
		Changes    int           `json:"changes"`
		Snapshot   string        `json:"snapshot"`
	}{hashVersion, pv.Ranking, pv.Number, baseline, pv.Pins.Proposals, len(pv.NewEntries), len(pv.Changes), pv.SnapshotHash})
	// One record a line, the counts above: the lists cannot run into each other.
	for i := range pv.NewEntries {
		_ = enc.Encode(&pv.NewEntries[i])
	}
	for i := range pv.Changes {
		_ = enc.Encode(&pv.Changes[i])
	}
	if pv.Methodology != nil {
		_ = enc.Encode(pv.Methodology)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// changedIn names the first thing the preview pinned that is no longer so,
// as a *StateError wrapping ErrPreviewChanged; nil when everything it pinned
// holds (the hash differs for a reason it did not pin: a new entry's name,
// the ranking's methodology), or when the pins are another ranking's. ed
// is the ranking's edition now; chosen the proposals a publish chooses now.
func (pp *PreviewPins) changedIn(ranking string, ed *Edition, chosen []*Proposal) error {
	if pp.Ranking != ranking {
		return nil
	}
	if ed.Number+1 != pp.Number {
		return stateErr(ErrPreviewChanged, "edition.changed_edition", Args{"edition": ed.Number})
	}
	now := make(map[string]*Proposal, len(chosen))
	for _, p := range chosen {
		if p.Exists() {
			now[p.ID] = p
		}
	}
	for _, pin := range pp.Proposals {
		p, ok := now[pin.ID]
		switch {
		case !ok:
			return stateErr(ErrPreviewChanged, "edition.changed_left", Args{"proposal": pin.ID})
		case p.Revision != pin.Revision:
			return stateErr(ErrPreviewChanged, "edition.changed_revised", Args{"proposal": pin.ID, "from": pin.Revision, "to": p.Revision})
		case p.Status != StatusCrossValidated:
			return stateErr(ErrPreviewChanged, "edition.changed_not_ready", Args{"proposal": pin.ID})
		}
	}
	ids := make([]string, 0, len(now))
	for id := range now {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		if _, ok := slices.BinarySearchFunc(pp.Proposals, id, func(p ProposalPin, id string) int { return compareStr(p.ID, id) }); !ok {
			return stateErr(ErrPreviewChanged, "edition.changed_joined", Args{"proposal": id})
		}
	}
	return nil
}
