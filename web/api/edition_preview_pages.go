package api

import (
	"cmp"
	"net/http"
	"slices"
	"strconv"

	"github.com/crossrank/crossrank/web/api/wire"
)

// previewPageSize is how many changes, moves and new entries one page of
// an edition preview holds: the first edition of a 10,000-entry ranking
// has 100,000 changes, which no client should get in one answer.
const previewPageSize = 100

// previewLargestMoves is how many of the largest rank moves a preview
// lists whole, whatever the page.
const previewLargestMoves = 10

// PreviewSize counts an edition preview's lists, on every page.
type PreviewSize struct {
	Proposals  int `json:"proposals"`
	NewEntries int `json:"new_entries"`
	Changes    int `json:"changes"`
	Entries    int `json:"entries"` // in the ranking after the edition
}

// paged returns pv with its size, its largest moves and page (from 1) of
// its changes, moves and new entries; proposals stay whole (publishing
// sends them back).
func paged(pv EditionPreview, page int) EditionPreview {
	pv.Size = &PreviewSize{Proposals: len(pv.Proposals), NewEntries: len(pv.NewEntries), Changes: len(pv.Changes), Entries: len(pv.Moves)}
	moved := slices.DeleteFunc(slices.Clone(pv.Moves), func(m wire.Move) bool { return m.BeforeRank == nil || *m.BeforeRank == m.AfterRank })
	dist := func(m wire.Move) int { d := *m.BeforeRank - m.AfterRank; return max(d, -d) }
	slices.SortFunc(moved, func(a, b wire.Move) int {
		return cmp.Or(cmp.Compare(dist(b), dist(a)), cmp.Compare(a.AfterRank, b.AfterRank))
	})
	pv.LargestMoves = moved[:min(previewLargestMoves, len(moved))]
	pv.Page = page
	pv.Pages = max(pages(len(pv.Changes)), pages(len(pv.Moves)), pages(len(pv.NewEntries)))
	pv.Changes, pv.Moves, pv.NewEntries = pageSlice(pv.Changes, page), pageSlice(pv.Moves, page), pageSlice(pv.NewEntries, page)
	return pv
}

func pages(n int) int { return max(1, (n+previewPageSize-1)/previewPageSize) }

// pageSlice is page (from 1) of items: empty, not null, past the last.
func pageSlice[T any](items []T, page int) []T {
	from := (page - 1) * previewPageSize
	if from >= len(items) {
		return []T{}
	}
	return items[from:min(from+previewPageSize, len(items))]
}

// previewPage reads ?page=N; 0 with ok false when it is not a positive
// number.
func previewPage(r *http.Request) (int, bool) {
	s := r.URL.Query().Get("page")
	if s == "" {
		return 1, true
	}
	n, err := strconv.Atoi(s)
	return n, err == nil && n > 0
}
