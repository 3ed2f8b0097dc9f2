package domain

import (
	"maps"
	"slices"

	"github.com/crossrank/crossrank/events"
)

// PublishedEntry is an entry as the latest edition published it.
type PublishedEntry struct {
	Slug       string
	Name       events.Text
	Category   string
	Website    string
	Scores     map[string]int      // by criterion; a missing score counts as 0
	Attributes map[string][]string // by attribute key
	Since      int                 // edition that first published it
}

// Edition is the published state of one ranking: the latest edition number
// and every published entry with its scores and attributes. It evolves only
// from EditionPublished, so it is the single source of published values and
// of every proposal's baseline.
type Edition struct {
	Ranking string
	Number  int
	Entries map[string]*PublishedEntry
	Last    events.EditionPublished
	Seq     uint64
	// MethodologyEdition is the edition that last published a methodology
	// proposal (0: none), the base every methodology proposal is checked
	// against.
	MethodologyEdition int
	// Schedules are the ranking's scheduled editions by id, whatever
	// became of them.
	Schedules map[string]*Schedule
	// Parts is what the parts of the latest edition split into parts
	// (events.EditionPartRecorded) applied, up to and after its head;
	// nil once an edition comes whole.
	Parts *EditionParts `json:",omitempty"`
}

// EditionParts counts the parts of edition Number applied so far, and
// lists the proposals they release: its head's Size must match them, and
// the read model records the whole list with the head.
type EditionParts struct {
	Number int
	events.EditionSize
	Released []string // the proposals' ids, in the edition's order
}

// Entry returns the published entry with slug, or nil.
func (ed *Edition) Entry(slug string) *PublishedEntry {
	if ed == nil {
		return nil
	}
	return ed.Entries[slug]
}

// Evolve applies one event to the edition state.
func (ed *Edition) Evolve(e events.Event) {
	ed.Seq = e.Sequence
	if part, ok := e.Data.(*events.EditionPartRecorded); ok {
		ed.applyPart(*part)
		return
	}
	d, ok := e.Data.(*events.EditionPublished)
	if !ok {
		ed.evolveSchedule(e)
		return
	}
	if d.Size != nil {
		ed.applyHead(*d) // the parts before it applied the lists
	} else {
		ed.Parts = nil
		ed.apply(*d)
	}
	ed.Last = *d
	if d.Schedule != "" {
		ed.updateSchedule(d.Schedule, func(s *Schedule) { s.State, s.Edition = SchedulePublished, d.Number })
	}
}

// apply mutates the state with an edition's new entries and changes; it is
// used by Evolve and, on a clone, by the preview.
func (ed *Edition) apply(d events.EditionPublished) {
	ed.applyHead(d)
	ed.applyLists(d.Number, d.NewEntries, d.Changes)
}

// applyHead records an edition's number, and its methodology if any.
func (ed *Edition) applyHead(d events.EditionPublished) {
	ed.Ranking, ed.Number = d.Ranking, d.Number
	if d.Methodology != "" {
		ed.MethodologyEdition = d.Number
	}
}

// applyPart applies one part of an edition split into parts and counts it:
// the values are those the edition publishes, and every reader applies the
// parts at once with their head (one atomic batch).
func (ed *Edition) applyPart(p events.EditionPartRecorded) {
	n := EditionParts{Number: p.Number} // a new value: a clone shares the old one
	if ed.Parts != nil && ed.Parts.Number == p.Number {
		n = *ed.Parts
	}
	n.Parts++
	n.Proposals += len(p.Proposals)
	n.NewEntries += len(p.NewEntries)
	n.Changes += len(p.Changes)
	n.Released = append(slices.Clip(n.Released), p.Proposals...)
	ed.Parts = &n
	ed.applyLists(p.Number, p.NewEntries, p.Changes)
}

// applyLists mutates the state with an edition's new entries and changes.
func (ed *Edition) applyLists(number int, news []events.PublishedEntry, changes []events.AppliedChange) {
	if ed.Entries == nil {
		ed.Entries = map[string]*PublishedEntry{}
	}
	for _, ne := range news {
		ed.Entries[ne.Slug] = &PublishedEntry{
			Slug: ne.Slug, Name: ne.Name, Category: ne.Category, Website: ne.Website,
			Scores: map[string]int{}, Attributes: map[string][]string{}, Since: number,
		}
	}
	owned := make(map[string]bool, len(news))
	for _, ne := range news {
		owned[ne.Slug] = true
	}
	for _, c := range changes {
		pe := ed.Entries[c.Entry]
		if pe == nil {
			continue // a change for an entry never published: decide forbids it
		}
		if !owned[c.Entry] { // shared with clones: change a copy
			pe, owned[c.Entry] = ed.ownEntry(c.Entry), true
		}
		kind, key := splitTarget(c.Target)
		switch {
		case kind == "score" && c.ToScore != nil:
			pe.Scores[key] = *c.ToScore
		case kind == "score":
			delete(pe.Scores, key)
		case len(c.ToTags) == 0:
			delete(pe.Attributes, key)
		default:
			pe.Attributes[key] = slices.Clone(c.ToTags)
		}
	}
}

// Clone returns a copy that a preview (or the next event) can change
// without touching the cached state. The published entries are shared,
// not copied: applyLists replaces an entry it changes by a copy, so an
// edition part that touches a hundred entries of ten thousand copies a
// hundred, not ten thousand. Whoever changes an entry of a clone in any
// other way copies it first (ownEntry).
func (ed *Edition) Clone() *Edition {
	out := &Edition{Ranking: ed.Ranking, Number: ed.Number, Last: ed.Last, Seq: ed.Seq, MethodologyEdition: ed.MethodologyEdition,
		Parts:     ed.Parts,     // read only: replaced, never changed in place
		Schedules: ed.Schedules, // read only: a preview never changes schedules
		Entries:   maps.Clone(ed.Entries)}
	if out.Entries == nil {
		out.Entries = map[string]*PublishedEntry{}
	}
	return out
}

// ownEntry replaces the entry slug by a deep copy and returns it, so it
// can be changed without touching states that share it; nil when there
// is no such entry.
func (ed *Edition) ownEntry(slug string) *PublishedEntry {
	v := ed.Entries[slug]
	if v == nil {
		return nil
	}
	c := *v
	c.Scores = maps.Clone(v.Scores)
	if c.Scores == nil {
		c.Scores = map[string]int{}
	}
	c.Attributes = make(map[string][]string, len(v.Attributes))
	for a, t := range v.Attributes {
		c.Attributes[a] = slices.Clone(t)
	}
	ed.Entries[slug] = &c
	return &c
}

// EntrySlugs returns the published entries' slugs, sorted.
func (ed *Edition) EntrySlugs() []string {
	return slices.Sorted(maps.Keys(ed.Entries))
}
