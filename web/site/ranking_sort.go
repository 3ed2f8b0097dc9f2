package site

import (
	"cmp"
	"slices"
	"strings"
	"sync"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/projections"
)

// A ranking page sorts by any of its columns through a link (?sort=, no
// script needed): "name", "category", "tier", "total", "move", "c.<criterion>",
// each with a leading "-" for the other direction; absent, the rank order.

// sortKey is a column the ranking table sorts by.
type sortKey struct {
	Column string // "" (rank), name, category, tier, total, move or c.<criterion>
	Desc   bool
}

// String is the key as ?sort= spells it; "" for the rank order.
func (k sortKey) String() string {
	if k.Column == "" {
		return ""
	}
	if k.Desc {
		return "-" + k.Column
	}
	return k.Column
}

// sortKeyOf reads ?sort=; unknown columns read as the rank order, so any
// shared address shows a valid view.
func sortKeyOf(r *domain.Ranking, raw string) sortKey {
	k := sortKey{Column: strings.TrimPrefix(raw, "-"), Desc: strings.HasPrefix(raw, "-")}
	switch {
	case k.Column == "rank" && !k.Desc:
		return sortKey{} // the default, spelt out
	case slices.Contains([]string{"rank", "name", "category", "tier", "total", "move"}, k.Column):
		return k
	case strings.HasPrefix(k.Column, "c."):
		for _, c := range r.Criteria {
			if "c."+c.Slug == k.Column {
				return k
			}
		}
	}
	return sortKey{}
}

// naturalDesc reports whether a column reads best from its largest value
// first: scores, totals and moves do, ranks, names and tiers do not.
func naturalDesc(column string) bool {
	return column == "total" || column == "move" || strings.HasPrefix(column, "c.")
}

// headerSort is where a column's header link leads: the column in its
// natural direction, or, when the table is already sorted by it, the
// other direction.
func headerSort(current sortKey, column string) sortKey {
	if column == "" || column == "rank" {
		if current.Column == "" {
			return sortKey{Column: "rank", Desc: true}
		}
		return sortKey{}
	}
	if current.Column == column {
		return sortKey{Column: column, Desc: !current.Desc}
	}
	return sortKey{Column: column, Desc: naturalDesc(column)}
}

// orderMemo keeps the orders a ranking's rows were sorted in, by view and
// column: an edition's rows never change, so each order is sorted once per
// edition and language, and a request reads a page of it instead of
// sorting 10,000 rows. The key holds the edition (and the independent
// view's hash), so a new edition never reads an old order; the memo is
// emptied when full.
type orderMemo struct {
	mu    sync.Mutex
	limit int
	m     map[string][]int32
}

// sortedOrders is the site's one memo of sorted orders: a few dozen keys
// of 40 KB each at 10,000 entries.
var sortedOrders = &orderMemo{limit: 64, m: map[string][]int32{}}

// order returns the indexes of rows in the order k asks for; compute is
// called once per key.
func (o *orderMemo) order(key string, n int, compute func() []int32) []int32 {
	o.mu.Lock()
	got, ok := o.m[key]
	o.mu.Unlock()
	if ok && len(got) == n {
		return got
	}
	got = compute()
	o.mu.Lock()
	if len(o.m) >= o.limit {
		clear(o.m)
	}
	o.m[key] = got
	o.mu.Unlock()
	return got
}

// sortRows returns the indexes of rows (in rank order) sorted by k, ties
// in rank order. names and cats are the entries' and categories' names in
// the page's language, tiers and moves by entry.
func sortRows(rows []projections.StandingRow, k sortKey, names func(projections.StandingRow) string,
	cats map[string]string, tiers map[string]domain.EntryStability, moves map[string]*int) []int32 {
	idx := make([]int32, len(rows))
	for i := range idx {
		idx[i] = int32(i)
	}
	var by func(a, b projections.StandingRow) int
	switch col := k.Column; {
	case col == "rank":
		by = func(a, b projections.StandingRow) int { return 0 }
	case col == "name":
		by = func(a, b projections.StandingRow) int { return cmp.Compare(names(a), names(b)) }
	case col == "category":
		by = func(a, b projections.StandingRow) int { return cmp.Compare(cats[a.Category], cats[b.Category]) }
	case col == "tier":
		by = func(a, b projections.StandingRow) int { return cmp.Compare(tiers[a.Slug].Tier, tiers[b.Slug].Tier) }
	case col == "total":
		by = func(a, b projections.StandingRow) int { return cmp.Compare(a.Total, b.Total) }
	case col == "move":
		// New entries have no move: below every fall, in either direction
		// they sort as the smallest.
		val := func(r projections.StandingRow) int {
			d, ok := moves[r.Slug]
			switch {
			case !ok:
				return 0
			case d == nil:
				return -1 << 30
			}
			return *d
		}
		by = func(a, b projections.StandingRow) int { return cmp.Compare(val(a), val(b)) }
	default:
		crit := strings.TrimPrefix(col, "c.")
		val := func(r projections.StandingRow) int {
			if s, ok := r.Scores[crit]; ok {
				return s
			}
			return -1 // unscored below a 0
		}
		by = func(a, b projections.StandingRow) int { return cmp.Compare(val(a), val(b)) }
	}
	slices.SortStableFunc(idx, func(a, b int32) int {
		c := by(rows[a], rows[b])
		if k.Desc {
			c = -c
		}
		if c == 0 {
			// Ties keep the rank order; sorted by rank the other way,
			// the whole order turns.
			c = cmp.Compare(a, b)
			if k.Column == "rank" && k.Desc {
				c = -c
			}
		}
		return c
	})
	return idx
}
