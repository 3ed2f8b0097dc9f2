package events

import (
	"bytes"
	"encoding/json"
)

// EditionPartBudget bounds the JSON body of one edition event: an edition
// whose EditionPublished would be larger is split into EditionPartRecorded
// events of at most this size followed by a head without its lists. A
// quarter of NATS's default max_payload (1 MiB) leaves room for the
// headers and for a server configured lower.
const EditionPartBudget = 256 << 10

// EditionPartRecorded holds one part of a large edition's lists: the
// proposals it releases, the entries it makes public and the changes it
// applies, in the order the whole edition lists them. The parts of edition
// Number precede its EditionPublished in the same atomic batch, numbered
// from 1 to the head's Parts; a reader has them all when the head arrives.
type EditionPartRecorded struct {
	Number     int              `json:"number"`
	Part       int              `json:"part"`
	Proposals  []string         `json:"proposals,omitempty"`
	NewEntries []PublishedEntry `json:"new_entries,omitempty"`
	Changes    []AppliedChange  `json:"changes,omitempty"`
}

// EditionSize is the size of an edition's lists: what a head split into
// parts records in place of them.
type EditionSize struct {
	Parts      int `json:"parts"`
	Proposals  int `json:"proposals"`
	NewEntries int `json:"new_entries"`
	Changes    int `json:"changes"`
}

// SplitEdition returns d as it is when its body fits in budget bytes.
// Otherwise it returns the parts holding d's proposals, new entries and
// changes, each body within budget, and d without them, with their counts
// in Size: the head to append after the parts. The parts' lists share
// d's backing arrays (each capped at its own end): a first edition of ten
// thousand entries is split without a second copy of its hundred thousand
// changes, and without encoding it whole.
func SplitEdition(d EditionPublished, budget int) (head EditionPublished, parts []EditionPartRecorded, err error) {
	// Room for the part's own fields and the list punctuation.
	const frame = 128
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf) // escapes as json.Marshal does; one buffer for every item
	size := func(v any) (int, error) {
		buf.Reset()
		if err := enc.Encode(v); err != nil {
			return 0, err
		}
		return buf.Len() - 1, nil // without Encode's newline
	}
	var start, at struct{ proposals, newEntries, changes int } // the current part's first items, and the next
	cut := func() {
		parts = append(parts, EditionPartRecorded{Number: d.Number, Part: len(parts) + 1,
			Proposals:  span(d.Proposals, start.proposals, at.proposals),
			NewEntries: span(d.NewEntries, start.newEntries, at.newEntries),
			Changes:    span(d.Changes, start.changes, at.changes)})
		start = at
	}
	used, total := frame, 0
	fit := func(n int) {
		if used+n+1 > budget && used > frame {
			cut()
			used = frame
		}
		used += n + 1
		total += n + 1
	}
	for _, p := range d.Proposals {
		fit(len(p) + 2)
		at.proposals++
	}
	for _, ne := range d.NewEntries {
		n, err := size(ne)
		if err != nil {
			return d, nil, err
		}
		fit(n)
		at.newEntries++
	}
	for _, c := range d.Changes {
		n, err := size(c)
		if err != nil {
			return d, nil, err
		}
		fit(n)
		at.changes++
	}
	// The whole body is larger than its items: encoded whole only when
	// it may fit.
	if total <= budget {
		whole, err := json.Marshal(d)
		if err != nil {
			return d, nil, err
		}
		if len(whole) <= budget {
			return d, nil, nil
		}
	}
	cut()
	head = d
	head.Proposals, head.NewEntries, head.Changes = nil, nil, nil
	head.Size = &EditionSize{Parts: len(parts), Proposals: len(d.Proposals), NewEntries: len(d.NewEntries), Changes: len(d.Changes)}
	return head, parts, nil
}

// span is s[i:j] capped at j (an append to it copies), or nil when empty,
// as a part without items of a list holds none.
func span[T any](s []T, i, j int) []T {
	if i == j {
		return nil
	}
	return s[i:j:j]
}

// JoinEdition returns the whole edition a head and its parts describe: the
// head with the parts' lists in it and no Size. It is the inverse of
// SplitEdition; a head without Size is returned as it is.
func JoinEdition(head EditionPublished, parts []EditionPartRecorded) EditionPublished {
	if head.Size == nil {
		return head
	}
	out := head
	out.Size = nil
	out.Proposals = make([]string, 0, head.Size.Proposals)
	out.NewEntries = make([]PublishedEntry, 0, head.Size.NewEntries)
	out.Changes = make([]AppliedChange, 0, head.Size.Changes)
	for _, p := range parts {
		out.Proposals = append(out.Proposals, p.Proposals...)
		out.NewEntries = append(out.NewEntries, p.NewEntries...)
		out.Changes = append(out.Changes, p.Changes...)
	}
	if len(out.NewEntries) == 0 {
		out.NewEntries = nil
	}
	return out
}

// Editions returns the editions an edition aggregate's events publish,
// oldest first, each whole (JoinEdition): what an export or a webhook
// reads. Other events of the aggregate are skipped.
func Editions(evs []Event) []EditionPublished {
	var out []EditionPublished
	var parts []EditionPartRecorded
	for _, e := range evs {
		switch d := e.Data.(type) {
		case *EditionPartRecorded:
			parts = append(parts, *d)
		case *EditionPublished:
			out = append(out, JoinEdition(*d, parts))
			parts = parts[:0]
		}
	}
	return out
}
