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
	d, ok := e.Data.(*events.EditionPublished)
	if !ok {
		ed.evolveSchedule(e)
		return
	}
	ed.apply(*d)
	ed.Last = *d
	if d.Schedule != "" {
		ed.updateSchedule(d.Schedule, func(s *Schedule) { s.State, s.Edition = SchedulePublished, d.Number })
	}
}

// apply mutates the state with an edition's new entries and changes; it is
// used by Evolve and, on a clone, by the preview.
func (ed *Edition) apply(d events.EditionPublished) {
	if ed.Entries == nil {
		ed.Entries = map[string]*PublishedEntry{}
	}
	ed.Ranking, ed.Number = d.Ranking, d.Number
	if d.Methodology != "" {
		ed.MethodologyEdition = d.Number
	}
	for _, ne := range d.NewEntries {
		ed.Entries[ne.Slug] = &PublishedEntry{
			Slug: ne.Slug, Name: ne.Name, Category: ne.Category, Website: ne.Website,
			Scores: map[string]int{}, Attributes: map[string][]string{}, Since: d.Number,
		}
	}
	for _, c := range d.Changes {
		pe := ed.Entries[c.Entry]
		if pe == nil {
			continue // a change for an entry never published: decide forbids it
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

// Clone returns a deep copy, so a preview can apply changes without touching
// the cached state.
func (ed *Edition) Clone() *Edition {
	out := &Edition{Ranking: ed.Ranking, Number: ed.Number, Last: ed.Last, Seq: ed.Seq, MethodologyEdition: ed.MethodologyEdition,
		Schedules: ed.Schedules, // read only: a preview never changes schedules
		Entries:   make(map[string]*PublishedEntry, len(ed.Entries))}
	for k, v := range ed.Entries {
		c := *v
		c.Scores = maps.Clone(v.Scores)
		c.Attributes = make(map[string][]string, len(v.Attributes))
		for a, t := range v.Attributes {
			c.Attributes[a] = slices.Clone(t)
		}
		out.Entries[k] = &c
	}
	return out
}

// EntrySlugs returns the published entries' slugs, sorted.
func (ed *Edition) EntrySlugs() []string {
	return slices.Sorted(maps.Keys(ed.Entries))
}
