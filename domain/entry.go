package domain

import "github.com/crossrank/crossrank/events"

// Entry is the thing being ranked, as registered. Its published scores and
// attributes live in the ranking's Edition, which releases them atomically.
type Entry struct {
	events.EntryCreated
	Seq uint64
}

// Exists reports whether the entry has been created.
func (e *Entry) Exists() bool { return e != nil && e.Slug != "" }

// Evolve applies one event to the entry.
func (e *Entry) Evolve(ev events.Event) {
	if d, ok := ev.Data.(*events.EntryCreated); ok {
		e.EntryCreated = *d
	}
	e.Seq = ev.Sequence
}

// NewEntry describes the entry a proposal creates.
type NewEntry struct {
	Name        events.Text
	Category    string
	Website     string
	Description events.Text
}
