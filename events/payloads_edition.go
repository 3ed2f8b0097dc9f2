package events

import "encoding/json"

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
// in Size: the head to append after the parts.
func SplitEdition(d EditionPublished, budget int) (head EditionPublished, parts []EditionPartRecorded, err error) {
	whole, err := json.Marshal(d)
	if err != nil {
		return d, nil, err
	}
	if len(whole) <= budget {
		return d, nil, nil
	}
	size := EditionSize{Proposals: len(d.Proposals), NewEntries: len(d.NewEntries), Changes: len(d.Changes)}
	// Room for the part's own fields and the list punctuation.
	const frame = 128
	cur := EditionPartRecorded{Number: d.Number, Part: 1}
	used := frame
	fit := func(n int) {
		if used+n+1 > budget && used > frame {
			parts = append(parts, cur)
			cur = EditionPartRecorded{Number: d.Number, Part: len(parts) + 1}
			used = frame
		}
		used += n + 1
	}
	for _, p := range d.Proposals {
		fit(len(p) + 2)
		cur.Proposals = append(cur.Proposals, p)
	}
	for _, ne := range d.NewEntries {
		b, err := json.Marshal(ne)
		if err != nil {
			return d, nil, err
		}
		fit(len(b))
		cur.NewEntries = append(cur.NewEntries, ne)
	}
	for _, c := range d.Changes {
		b, err := json.Marshal(c)
		if err != nil {
			return d, nil, err
		}
		fit(len(b))
		cur.Changes = append(cur.Changes, c)
	}
	parts = append(parts, cur)
	size.Parts = len(parts)
	head = d
	head.Proposals, head.NewEntries, head.Changes, head.Size = nil, nil, nil, &size
	return head, parts, nil
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
