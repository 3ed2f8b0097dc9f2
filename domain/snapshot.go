package domain

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
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

// Hash returns the hex SHA-256 of the canonical bytes.
func (s Snapshot) Hash() string {
	sum := sha256.Sum256(s.JSON())
	return hex.EncodeToString(sum[:])
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
