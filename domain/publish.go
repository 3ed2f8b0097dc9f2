package domain

import (
	"fmt"
	"regexp"
	"slices"
	"sort"

	"github.com/crossrank/crossrank/events"
)

// EditionPreview is what the next edition would publish: the changes, the
// new ranking and a hash of everything it depends on.
type EditionPreview struct {
	Ranking      string
	Number       int
	Proposals    []string // sorted ids
	NewEntries   []events.PublishedEntry
	Changes      []events.AppliedChange
	Before       Snapshot
	After        Snapshot
	SnapshotHash string
	Hash         string // what Publish must carry back
	// Pins are what the hash pins that a refused publish can name.
	Pins PreviewPins
	// Methodology is what the edition does to the ranking's methodology
	// when a chosen proposal changes it (nil otherwise); Ranking is the
	// ranking the edition publishes under.
	Methodology *events.MethodologyPublished
	Under       *Ranking
}

// Preview computes the next edition from the chosen cross-validated
// proposals. entries holds the Entry of every new-entry proposal.
func Preview(r *Ranking, ed *Edition, chosen []*Proposal, entries map[string]*Entry) (EditionPreview, error) {
	pv, _, err := nextEdition(r, ed, chosen, entries)
	if len(chosen) > 0 { // the ranking as it is, shown beside a refusal too
		pv.Before = BuildSnapshot(r, ed)
	}
	return pv, err
}

// nextEdition computes the preview of the next edition, without the
// ranking as it was (Before: only a preview shows it), and returns the
// edition state after it, which DecidePublish reads again.
func nextEdition(r *Ranking, ed *Edition, chosen []*Proposal, entries map[string]*Entry) (EditionPreview, *Edition, error) {
	if len(chosen) == 0 {
		return EditionPreview{}, nil, ErrNothingToPublish
	}
	chosen = slices.Clone(chosen)
	slices.SortFunc(chosen, func(a, b *Proposal) int { return compareStr(a.ID, b.ID) })
	slug := r.Slug
	if slug == "" && chosen[0].Exists() {
		slug = chosen[0].Ranking
	}
	pv := EditionPreview{Ranking: slug, Number: ed.Number + 1}
	// The methodology first: every other proposal is checked against the
	// methodology the edition publishes under.
	under := r
	var mp *Proposal
	for _, p := range chosen {
		if p.Exists() && p.IsMethodology() {
			if mp != nil {
				return pv, nil, fmt.Errorf("%w: methodology in %s and %s", ErrDuplicateTarget, mp.ID, p.ID)
			}
			mp = p
		}
	}
	var cleared []events.AppliedChange
	if mp != nil && mp.Ranking == slug && mp.Methodology != nil {
		var err error
		if under, pv.Methodology, cleared, err = methodologyRelease(r, ed, mp, pv.Number); err != nil {
			return pv, nil, err
		}
	} else if !r.Exists() {
		return pv, nil, ErrRankingMissing
	}
	pv.Under = under
	touched := map[string]string{}
	newEntries := map[string]bool{} // the slugs in pv.NewEntries
	pv.Pins = PreviewPins{Ranking: slug, Number: pv.Number, Proposals: make([]ProposalPin, 0, len(chosen))}
	for _, p := range chosen {
		if !p.Exists() {
			return pv, nil, ErrProposalMissing
		}
		if p.Ranking != slug {
			return pv, nil, invalid("proposals", "edition.other_ranking", Args{"proposal": p.ID})
		}
		if p.Status != StatusCrossValidated {
			return pv, nil, stateErr(ErrNotCrossValidated, "edition.not_cross_validated", Args{"proposal": p.ID})
		}
		if len(p.StaleTargets(ed)) > 0 {
			return pv, nil, fmt.Errorf("%w: %s", ErrStaleBaseline, p.ID)
		}
		pv.Proposals = append(pv.Proposals, p.ID)
		pv.Pins.Proposals = append(pv.Pins.Proposals, ProposalPin{ID: p.ID, Revision: p.Revision})
		if p.IsMethodology() {
			continue
		}
		category := ""
		if pe := ed.Entry(p.Entry); pe != nil {
			category = pe.Category
		}
		if p.NewEntry && ed.Entry(p.Entry) == nil {
			e := entries[p.Entry]
			if !e.Exists() {
				return pv, nil, fmt.Errorf("%w: %s", ErrEntryMissing, p.Entry)
			}
			category = e.Category
			if newEntries[p.Entry] {
				return pv, nil, fmt.Errorf("%w: entry %s", ErrDuplicateTarget, p.Entry)
			}
			newEntries[p.Entry] = true
			pv.NewEntries = append(pv.NewEntries, events.PublishedEntry{
				Slug: e.Slug, Name: e.Name, Category: e.Category, Website: e.Website, Proposal: p.ID})
		}
		if err := fitsMethodology(under, p, category); err != nil {
			return pv, nil, err
		}
		for _, t := range p.Targets() {
			key := p.Entry + "/" + t
			if other, dup := touched[key]; dup {
				return pv, nil, fmt.Errorf("%w: %s in %s and %s", ErrDuplicateTarget, key, other, p.ID)
			}
			touched[key] = p.ID
			pv.Changes = append(pv.Changes, p.applied(t))
		}
	}
	// Checked after the loop: a proposal on an entry that a chosen new-entry
	// proposal publishes is fine whichever of the two ids sorts first.
	for _, p := range chosen {
		if p.IsMethodology() {
			continue
		}
		if ed.Entry(p.Entry) == nil && !newEntries[p.Entry] {
			return pv, nil, fmt.Errorf("%w: %s is not published yet", ErrEntryMissing, p.Entry)
		}
	}
	pv.Changes = append(pv.Changes, cleared...)
	after := ed.Clone()
	after.apply(pv.event())
	pv.After = BuildSnapshot(under, after)
	pv.SnapshotHash = pv.After.Hash()
	pv.Hash = previewHash(&pv, ed.Last.SnapshotHash)
	return pv, after, nil
}

// event is the EditionPublished the preview describes, without the hashes
// and notes Publish adds.
func (pv EditionPreview) event() events.EditionPublished {
	d := events.EditionPublished{Ranking: pv.Ranking, Number: pv.Number, Proposals: pv.Proposals,
		NewEntries: pv.NewEntries, Changes: pv.Changes}
	if pv.Methodology != nil {
		d.Methodology = pv.Methodology.Proposal
	}
	return d
}

func (p *Proposal) applied(target string) events.AppliedChange {
	kind, key := splitTarget(target)
	ac := events.AppliedChange{Proposal: p.ID, Entry: p.Entry, Target: target}
	if kind == "score" {
		c := p.Scores[key]
		to := c.To
		ac.FromScore, ac.ToScore, ac.Evidence = c.From, &to, slices.Clone(c.Evidence)
	} else {
		c := p.Attributes[key]
		ac.FromTags, ac.ToTags, ac.Evidence = c.From, c.To, slices.Clone(c.Evidence)
	}
	return ac
}

// PublishEdition releases chosen proposals as the next edition.
type PublishEdition struct {
	CommandID   string // the caller's idempotency key: the id of the command's first event
	Ranking     string
	Proposals   []string
	PreviewHash string // from the preview the publisher saw
	// Previewed is what that preview pinned, when the caller remembers
	// it (nil otherwise): a refusal then names what changed.
	Previewed *PreviewPins
	AuditHead string // audit chain head after AuditSeq, from the read model
	AuditSeq  uint64
	Note      string
	// Candidates are the ranking's other cross-validated proposals, from
	// the read model: the handler returns to review those whose baseline
	// the edition changes. DecidePublish reads them as loaded states.
	Candidates []string
}

var hexHash = regexp.MustCompile(`^[0-9a-f]{64}$`)

// DecidePublish yields EditionPublished (preceded by its
// EditionPartRecorded parts when its lists exceed events.EditionPartBudget),
// ProposalPublished for each chosen proposal and ProposalReturnedToReview
// for each other cross-validated proposal whose baseline the edition
// changes — one atomic batch.
func DecidePublish(r *Ranking, ed *Edition, chosen []*Proposal, entries map[string]*Entry, others []*Proposal, actor Actor, c PublishEdition) ([]Change, error) {
	if err := actor.require(RolePublisher); err != nil {
		return nil, err
	}
	for _, p := range chosen {
		if p.Exists() && !p.CanVote(actor.Name) {
			return nil, fmt.Errorf("%w: %s", ErrSelfPublish, p.ID)
		}
	}
	if err := checkText("note", c.Note, MaxLongText, false); err != nil {
		return nil, err
	}
	if c.AuditHead != "" && !hexHash.MatchString(c.AuditHead) {
		return nil, invalid("audit_head", "field.hex_sha256", nil)
	}
	// The preview is computed once, without the ranking as it was; its
	// edition state is the one the other proposals' baselines are checked
	// against.
	pv, after, err := nextEdition(r, ed, chosen, entries)
	if err == nil {
		err = JudgeQuorum(r, ed, chosen)
	}
	if c.Previewed != nil && (err != nil || c.PreviewHash != pv.Hash) {
		// What the publisher saw no longer holds: say what changed
		// rather than why the edition as it is now cannot be published.
		if changed := c.Previewed.changedIn(c.Ranking, ed, chosen); changed != nil {
			return nil, changed
		}
	}
	if err != nil {
		return nil, err
	}
	if c.PreviewHash != pv.Hash {
		return nil, ErrPreviewChanged
	}
	pv.After = Snapshot{} // hashed already: not kept while the events are appended
	var out []Change
	if pv.Methodology != nil { // first: the edition's snapshot is computed under it
		out = append(out, Change{RankingID(pv.Ranking), pv.Methodology})
	}
	d := pv.event()
	d.PreviewHash, d.SnapshotHash, d.AuditHead, d.AuditSeq, d.Note = pv.Hash, pv.SnapshotHash, c.AuditHead, c.AuditSeq, c.Note
	// An edition too large for one message goes out as its parts, then
	// its head, in the same atomic batch: one edition, whatever its size.
	head, parts, err := events.SplitEdition(d, events.EditionPartBudget)
	if err != nil {
		return nil, err
	}
	out = slices.Grow(out, len(parts)+1+len(chosen))
	for i := range parts {
		out = append(out, Change{EditionID(pv.Ranking), &parts[i]})
	}
	out = append(out, Change{EditionID(pv.Ranking), &head})
	for _, p := range chosen {
		out = append(out, Change{ProposalID(p.ID), &events.ProposalPublished{Edition: pv.Number, Revision: p.Revision}})
	}
	released := make(map[string]bool, len(pv.Proposals))
	for _, id := range pv.Proposals {
		released[id] = true
	}
	others = slices.Clone(others)
	sort.Slice(others, func(i, j int) bool { return others[i].ID < others[j].ID })
	for _, o := range others {
		if o.Status != StatusCrossValidated || released[o.ID] {
			continue
		}
		if stale := o.StaleTargets(after); len(stale) > 0 {
			out = append(out, Change{ProposalID(o.ID), &events.ProposalReturnedToReview{
				Edition: pv.Number, Targets: stale, Reason: "baseline_changed"}})
		}
	}
	return out, nil
}
