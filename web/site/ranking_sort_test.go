package site_test

import (
	"cmp"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/i18n"
	"github.com/crossrank/crossrank/web/site"
	"github.com/crossrank/crossrank/web/webtest"
)

// TestRankingSortsByColumn: a header link sorts the table by its column,
// page by page (4 rows a page here), ties in rank order; the link of the
// sorted column turns the order, the pager keeps the sort, the places
// stay the ranks, and an unknown column reads as the rank order.
func TestRankingSortsByColumn(t *testing.T) {
	e := newSiteEnv(t)
	s := site.New(site.Config{Read: e.Read, Log: slog.New(slog.DiscardHandler), Rows: 4})
	mux := http.NewServeMux()
	s.Routes(mux, func(h http.Handler) http.Handler { return h })
	get := func(target string) *goquery.Document {
		t.Helper()
		r := httptest.NewRequest(http.MethodGet, target, nil)
		rq := &httpx.Request{Lang: i18n.En, Nonce: "n", Clock: time.Now, Now: time.Now()}
		w := httptest.NewRecorder()
		mux.ServeHTTP(w, r.WithContext(httpx.NewContext(r.Context(), rq)))
		if w.Code != http.StatusOK {
			t.Fatalf("%s: %d", target, w.Code)
		}
		doc, err := goquery.NewDocumentFromReader(strings.NewReader(w.Body.String()))
		if err != nil {
			t.Fatal(err)
		}
		return doc
	}
	st, err := e.Read.Standing(e.Ctx, demo.RankingSlug, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	crit := st.Ranking.Criteria[0].Slug
	// What the second page must hold: every entry by its score on the
	// criterion, highest first (unscored last), ties by rank.
	rows := slices.Clone(st.Rows)
	score := func(i int) int {
		if v, ok := rows[i].Scores[crit]; ok {
			return v
		}
		return -1
	}
	idx := []int{}
	for i := range rows {
		idx = append(idx, i)
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(score(b), score(a)) })
	var want, wantRanks []string
	for _, i := range idx[4:8] {
		want = append(want, rows[i].Slug)
		wantRanks = append(wantRanks, strconv.Itoa(rows[i].Rank))
	}

	base := "/r/" + demo.RankingSlug
	doc := get(base)
	head := doc.Find(`[data-testid="col-c.` + crit + `"]`)
	href := head.Find(`a[data-testid="sort-link"]`).AttrOr("href", "")
	if href != base+"?sort=-c."+crit {
		t.Fatalf("the criterion's header links to %q", href)
	}
	if !strings.Contains(head.Text(), "%") {
		t.Errorf("the criterion's header %q shows no weight", head.Text())
	}
	doc = get(href)
	next := doc.Find(`[data-testid="page-next"]`).AttrOr("href", "")
	if !strings.Contains(next, "sort=-c."+crit) || !strings.Contains(next, "page=2") {
		t.Fatalf("the next page %q loses the sort", next)
	}
	page2 := get(next)
	if got := webtest.Testids(page2, "ranking-row", "data-entry"); !slices.Equal(got, want) {
		t.Errorf("page 2 sorted by %s: %v, want %v", crit, got, want)
	}
	if got := webtest.Testids(page2, "ranking-row", "data-rank"); !slices.Equal(got, wantRanks) {
		t.Errorf("page 2's places %v, want the ranks %v", got, wantRanks)
	}
	sorted := page2.Find(`[data-testid="col-c.` + crit + `"]`)
	if sorted.AttrOr("aria-sort", "") != "descending" || sorted.Find("a").AttrOr("href", "") != base+"?sort=c."+crit {
		t.Errorf("the sorted header: aria-sort %q, link %q", sorted.AttrOr("aria-sort", ""), sorted.Find("a").AttrOr("href", ""))
	}

	// By name, A to Z, in the page's language.
	var names []string
	for _, r := range st.Rows {
		names = append(names, r.Name.In(i18n.En))
	}
	slices.Sort(names)
	var got []string
	get(base + "?sort=name").Find(`[data-testid="entry-link"]`).Each(func(_ int, s *goquery.Selection) { got = append(got, s.Text()) })
	if !slices.Equal(got, names[:4]) {
		t.Errorf("by name: %v, want %v", got, names[:4])
	}
	// A column nobody has is the rank order, and its page's address.
	if got := webtest.Testids(get(base+"?sort=nonsense"), "ranking-row", "data-rank"); !slices.Equal(got, []string{"1", "2", "3", "4"}) {
		t.Errorf("an unknown sort: ranks %v", got)
	}
}
