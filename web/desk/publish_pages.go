package desk

import (
	"cmp"
	"net/url"
	"slices"
	"strconv"
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
	pages := max(1, (len(items)+publishPageSize-1)/publishPageSize)
	from := (page - 1) * publishPageSize
	if from >= len(items) {
		return nil, pages
	}
	return items[from:min(from+publishPageSize, len(items))], pages
}

// pageParam reads ?page=N (1 when absent or not a positive number).
func pageParam(q url.Values) int {
	if n, err := strconv.Atoi(q.Get("page")); err == nil && n > 0 {
		return n
	}
	return 1
}

// biggestMoves returns the rows that moved most (up or down), largest
// first, ties by rank; an entry new in the edition has no move.
func biggestMoves(rows []publishRow, before map[string]int) []publishRow {
	moved := make([]publishRow, 0, len(rows))
	for _, r := range rows {
		if b, ok := before[r.Slug]; ok && b != r.Rank {
			moved = append(moved, r)
		}
	}
	dist := func(r publishRow) int {
		d := before[r.Slug] - r.Rank
		return max(d, -d)
	}
	slices.SortFunc(moved, func(a, b publishRow) int {
		return cmp.Or(cmp.Compare(dist(b), dist(a)), cmp.Compare(a.Rank, b.Rank))
	})
	return moved[:min(largestMoves, len(moved))]
}
