package desk

import (
	"cmp"
	"net/url"
	"slices"
	"strconv"

	"github.com/crossrank/crossrank/domain"
)

// publishPageSize is how many rows of each of the preview's lists (and of
// the candidates) the publish page shows at once: an edition of 10,000
// entries has 100,000 changes, and the page shows their counts, the
// largest moves and one page of each list, never all of them.
const publishPageSize = 50

// listChosenUpTo is how many chosen proposals the publish forms list by
// id; past it a preview of all of them posts "all" instead.
const listChosenUpTo = 200

// largestMoves is how many of the largest rank moves the preview lists
// above the paged ranking.
const largestMoves = 10

// publishSize counts the preview's lists.
type publishSize struct {
	Proposals, NewEntries, Changes, Entries int
}

// pageOf returns page (from 1) of items, and the number of pages (at
// least 1); a page past the last is empty.
func pageOf[T any](items []T, page int) ([]T, int) {
	from, pages := pageBounds(len(items), page)
	if from >= len(items) {
		return nil, pages
	}
	return items[from:min(from+publishPageSize, len(items))], pages
}

// pageBounds returns where page (from 1) of n items starts, and the number
// of pages (at least 1).
func pageBounds(n, page int) (from, pages int) {
	return (page - 1) * publishPageSize, max(1, (n+publishPageSize-1)/publishPageSize)
}

// pageParam reads ?page=N (1 when absent or not a positive number).
func pageParam(q url.Values) int {
	if n, err := strconv.Atoi(q.Get("page")); err == nil && n > 0 {
		return n
	}
	return 1
}

// previewIndex is what every view of a preview looks up, built once per
// preview rather than once per view: where each entry stood before, where
// it is in the new ranking, and which moved most.
type previewIndex struct {
	before map[string]standing // by entry slug
	after  map[string]int      // by entry slug: its index in After.Entries
	moves  []int               // indexes in After.Entries of the largest moves, largest first
}

// standing is an entry's rank and total in the ranking before the edition.
type standing struct{ rank, total int }

func indexPreview(pv domain.EditionPreview) previewIndex {
	ix := previewIndex{before: make(map[string]standing, len(pv.Before.Entries)),
		after: make(map[string]int, len(pv.After.Entries))}
	for _, e := range pv.Before.Entries {
		ix.before[e.Slug] = standing{e.Rank, e.Total}
	}
	for i, e := range pv.After.Entries {
		ix.after[e.Slug] = i
	}
	ix.moves = biggestMoves(pv.After.Entries, ix.before)
	return ix
}

// biggestMoves returns the indexes of the entries that moved most (up or
// down), largest first, ties by rank; an entry new in the edition has no
// move.
func biggestMoves(after []domain.SnapshotEntry, before map[string]standing) []int {
	var moved []int
	dist := func(i int) int {
		d := before[after[i].Slug].rank - after[i].Rank
		return max(d, -d)
	}
	for i, e := range after {
		if b, ok := before[e.Slug]; ok && b.rank != e.Rank {
			moved = append(moved, i)
		}
	}
	slices.SortFunc(moved, func(a, b int) int {
		return cmp.Or(cmp.Compare(dist(b), dist(a)), cmp.Compare(after[a].Rank, after[b].Rank))
	})
	return moved[:min(largestMoves, len(moved))]
}
