package domain

import (
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// StandingIndex is an edition's standings under one set of weights, in
// the order Standings gives them, with each category's share: where one
// entry would stand if only its own total changed is then two binary
// searches, not a sort of the whole ranking. It is read-only once built.
type StandingIndex struct {
	all   []Standing
	byCat map[string][]int32 // category → its entries' indexes in all, in order
	at    map[string]int32   // entry → its index in all
}

// NewStandingIndex ranks entries under weights (Standings) and indexes them.
func NewStandingIndex(entries map[string]*PublishedEntry, weights map[string]int) *StandingIndex {
	x := &StandingIndex{all: Standings(entries, weights), byCat: map[string][]int32{}}
	x.at = make(map[string]int32, len(x.all))
	for i, st := range x.all {
		x.at[st.Entry] = int32(i)
		x.byCat[st.Category] = append(x.byCat[st.Category], int32(i))
	}
	return x
}

// Of returns entry's standing, and false when it is not ranked.
func (x *StandingIndex) Of(entry string) (Standing, bool) {
	i, ok := x.at[entry]
	if !ok {
		return Standing{}, false
	}
	return x.all[i], true
}

// Rank returns the standing entry would have in category with total, every
// other entry as it is: overall and within the category, as Standings
// would rank it (a higher total first, then the slug).
func (x *StandingIndex) Rank(entry, category string, total int) Standing {
	old, ranked := x.Of(entry)
	cat := x.byCat[category]
	ahead := func(n int, row func(int) Standing, sameCategory bool) int {
		n = sort.Search(n, func(i int) bool { return !beats(row(i), total, entry) })
		// The entry's own row is among rows ahead of it when its old total
		// beat the new one: it does not count against itself.
		if ranked && (!sameCategory || old.Category == category) && beats(old, total, entry) {
			n--
		}
		return n
	}
	return Standing{Entry: entry, Category: category, Total: total,
		Rank:         ahead(len(x.all), func(i int) Standing { return x.all[i] }, false) + 1,
		CategoryRank: ahead(len(cat), func(i int) Standing { return x.all[cat[i]] }, true) + 1}
}

// beats reports whether st stands ahead of an entry with total. An entry's
// own row (same slug, same total) does not beat it.
func beats(st Standing, total int, entry string) bool {
	return st.Total > total || st.Total == total && st.Entry < entry
}

// StandingMemo keeps the indexes of the editions recently asked about, by
// edition position and weights: the rank-impact preview of a proposal page
// reads one instead of ranking 10,000 entries per scope per request. It
// holds a few (each about 100 bytes an entry: 1 MB at 10,000) and starts
// again when full.
type StandingMemo struct {
	mu sync.Mutex
	m  map[string]*StandingIndex
}

// standingMemoSize bounds the indexes kept: the overall weights and each
// scenario's, of the latest edition, and of a methodology proposal's.
const standingMemoSize = 8

// Index returns ed's standing index under weights, built once per edition
// position (ed.Seq changes with every event the edition applies). A nil
// memo builds it every time.
func (m *StandingMemo) Index(ed *Edition, weights map[string]int) *StandingIndex {
	if m == nil {
		return NewStandingIndex(ed.Entries, weights)
	}
	key := standingKey(ed, weights)
	m.mu.Lock()
	x, ok := m.m[key]
	m.mu.Unlock()
	if ok {
		return x
	}
	x = NewStandingIndex(ed.Entries, weights)
	m.mu.Lock()
	if m.m == nil || len(m.m) >= standingMemoSize {
		m.m = map[string]*StandingIndex{}
	}
	m.m[key] = x
	m.mu.Unlock()
	return x
}

func standingKey(ed *Edition, weights map[string]int) string {
	var b strings.Builder
	b.WriteString(ed.Ranking)
	b.WriteByte(' ')
	b.WriteString(strconv.FormatUint(ed.Seq, 10))
	for _, c := range slices.Sorted(maps.Keys(weights)) {
		b.WriteByte(' ')
		b.WriteString(c)
		b.WriteByte('=')
		b.WriteString(strconv.Itoa(weights[c]))
	}
	return b.String()
}
