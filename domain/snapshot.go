package domain

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"sort"

	"github.com/crossrank/crossrank/events"
)

// Snapshot is the canonical form of a published ranking. It holds only
// slices (no maps) in fixed orders, so its JSON is the same bytes whatever
// order the inputs came in; its SHA-256 is what an edition commits to.
type Snapshot struct {
	Ranking   string             `json:"ranking"`
	Edition   int                `json:"edition"`
	Weights   []NamedInt         `json:"weights"`
	Entries   []SnapshotEntry    `json:"entries"`
	Scenarios []SnapshotScenario `json:"scenarios"`
}

// NamedInt is one key–value pair in a canonical list.
type NamedInt struct {
	Name  string `json:"name"`
	Value int    `json:"value"`
}

// NamedTags is one attribute with its sorted tags.
type NamedTags struct {
	Name string   `json:"name"`
	Tags []string `json:"tags"`
}

// SnapshotEntry is one entry in rank order.
type SnapshotEntry struct {
	Slug         string      `json:"slug"`
	Name         events.Text `json:"name"`
	Category     string      `json:"category"`
	Scores       []NamedInt  `json:"scores"`
	Attributes   []NamedTags `json:"attributes"`
	Total        int         `json:"total"`
	Rank         int         `json:"rank"`
	CategoryRank int         `json:"category_rank"`
}

// SnapshotScenario is a scenario's order of entries (slugs, best first).
type SnapshotScenario struct {
	Slug  string   `json:"slug"`
	Order []string `json:"order"`
}

// BuildSnapshot computes the canonical snapshot of ed under r's weights.
func BuildSnapshot(r *Ranking, ed *Edition) Snapshot {
	weights := r.Weights()
	s := Snapshot{Ranking: r.Slug, Edition: ed.Number, Weights: sortedInts(weights)}
	for _, st := range Standings(ed.Entries, weights) {
		e := ed.Entries[st.Entry]
		se := SnapshotEntry{Slug: e.Slug, Name: e.Name, Category: e.Category, Scores: sortedInts(e.Scores),
			Total: st.Total, Rank: st.Rank, CategoryRank: st.CategoryRank, Attributes: []NamedTags{}}
		keys := make([]string, 0, len(e.Attributes))
		for k := range e.Attributes {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			tags := slices.Clone(e.Attributes[k])
			slices.Sort(tags)
			se.Attributes = append(se.Attributes, NamedTags{Name: k, Tags: tags})
		}
		s.Entries = append(s.Entries, se)
	}
	if s.Entries == nil {
		s.Entries = []SnapshotEntry{}
	}
	scen := slices.Clone(r.Scenarios)
	slices.SortFunc(scen, func(a, b events.Scenario) int { return compareStr(a.Slug, b.Slug) })
	s.Scenarios = []SnapshotScenario{}
	for _, sc := range scen {
		order := []string{}
		for _, st := range Standings(ed.Entries, sc.Weights) {
			order = append(order, st.Entry)
		}
		s.Scenarios = append(s.Scenarios, SnapshotScenario{Slug: sc.Slug, Order: order})
	}
	return s
}

// JSON returns the snapshot's canonical bytes.
func (s Snapshot) JSON() []byte {
	b, err := json.Marshal(s)
	if err != nil {
		panic("snapshot: " + err.Error()) // only slices, strings and ints: cannot fail
	}
	return b
}

// Hash returns the hex SHA-256 of the canonical bytes. They are hashed
// as they are written, an entry at a time: the snapshot of a ranking of
// ten thousand entries is megabytes of JSON, and hashing it need not hold
// them all (nor the copies a growing buffer leaves).
func (s Snapshot) Hash() string {
	h := sha256.New()
	if err := s.writeJSON(h); err != nil {
		panic("snapshot: " + err.Error()) // as JSON: cannot fail
	}
	return hex.EncodeToString(h.Sum(nil))
}

// writeJSON writes the bytes JSON returns to w, an item of each list at a
// time: the fields in their declared order, each value as json.Marshal
// writes it (TestSnapshotWriteJSON holds the two together).
func (s Snapshot) writeJSON(w io.Writer) error {
	bw := bufio.NewWriter(w)
	value := func(prefix string, v any) error {
		bw.WriteString(prefix)
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		_, err = bw.Write(b)
		return err
	}
	if err := errors.Join(value(`{"ranking":`, s.Ranking), value(`,"edition":`, s.Edition), value(`,"weights":`, s.Weights)); err != nil {
		return err
	}
	if err := writeList(bw, `,"entries":`, s.Entries, value); err != nil {
		return err
	}
	if err := writeList(bw, `,"scenarios":`, s.Scenarios, value); err != nil {
		return err
	}
	bw.WriteString("}")
	return bw.Flush()
}

// writeList writes a JSON list an item at a time (null when nil, as
// json.Marshal writes a nil slice).
func writeList[T any](bw *bufio.Writer, prefix string, items []T, value func(string, any) error) error {
	if items == nil {
		return value(prefix, nil)
	}
	bw.WriteString(prefix + "[")
	for i, it := range items {
		sep := ","
		if i == 0 {
			sep = ""
		}
		if err := value(sep, it); err != nil {
			return err
		}
	}
	bw.WriteString("]")
	return nil
}

func sortedInts(m map[string]int) []NamedInt {
	out := make([]NamedInt, 0, len(m))
	for k, v := range m {
		out = append(out, NamedInt{k, v})
	}
	slices.SortFunc(out, func(a, b NamedInt) int { return compareStr(a.Name, b.Name) })
	return out
}

func compareStr(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
