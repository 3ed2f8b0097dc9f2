package site

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/a-h/templ"
	"github.com/crossrank/crossrank/events/jetstream/jstest"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/projections/history"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/i18n"
	"github.com/crossrank/crossrank/web/ui"
)

// largeEntries is the size of the published ranking the paging tests
// read: 10,000, or 2,000 (still 20 pages) under the race detector, whose
// cost only repeats work here; CI runs it at full size without it.
var largeEntries = map[bool]int{false: 10_000, true: 2_000}[raceEnabled]

// TestRankingPagesAtScale reads a published ranking of 10,000 entries:
// page 1 and the last page hold their rows in rank order with the counts,
// a page past the last is 404, and the name filter finds an entry by two
// or three characters of its Chinese name, or by its English name.
func TestRankingPagesAtScale(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 10,000-entry ranking (about 90,000 events); -short skips it")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	env := jstest.Start(t)
	l := history.Large{Slug: "big", Entries: largeEntries, Criteria: 2, Seed: 11}
	if _, err := history.WriteLarge(ctx, env.Store, l); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "read.db")
	if _, err := projections.Rebuild(ctx, env.Store, path); err != nil {
		t.Fatal(err)
	}
	read, err := projections.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer read.Close()
	s := New(Config{Read: read, Log: slog.New(slog.DiscardHandler)})
	mux := http.NewServeMux()
	s.Routes(mux, func(h http.Handler) http.Handler { return h })
	get := func(target string) (int, *goquery.Document, []byte) {
		t.Helper()
		r := httptest.NewRequest(http.MethodGet, target, nil)
		r.Header.Set("Accept-Language", "en")
		rq := &httpx.Request{Lang: i18n.En, Nonce: "test-nonce", Clock: time.Now, Now: time.Now()}
		w := httptest.NewRecorder()
		mux.ServeHTTP(w, r.WithContext(httpx.NewContext(r.Context(), rq)))
		doc, err := goquery.NewDocumentFromReader(bytes.NewReader(w.Body.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		return w.Code, doc, w.Body.Bytes()
	}
	ranks := func(doc *goquery.Document) (first, last string, n int) {
		rows := doc.Find(`[data-testid="ranking-row"]`)
		return rows.First().AttrOr("data-rank", ""), rows.Last().AttrOr("data-rank", ""), rows.Length()
	}

	status, doc, body := get("/r/big")
	if first, last, n := ranks(doc); status != 200 || n != pageRows || first != "1" || last != fmt.Sprint(pageRows) {
		t.Fatalf("page 1: %d, %d rows ranked %s–%s", status, n, first, last)
	}
	pages := (largeEntries + pageRows - 1) / pageRows
	pager := doc.Find(`[data-testid="ranking-pager"]`)
	if pager.AttrOr("data-total", "") != fmt.Sprint(largeEntries) || pager.AttrOr("data-pages", "") != fmt.Sprint(pages) {
		t.Errorf("pager total %s, pages %s", pager.AttrOr("data-total", ""), pager.AttrOr("data-pages", ""))
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(body)
	zw.Close()
	t.Logf("page 1: %d bytes, %d gzipped", len(body), gz.Len())
	if gz.Len() > 100_000 {
		t.Errorf("page 1 is %d bytes gzipped, more than 100 KB", gz.Len())
	}

	// Tiers at 10,000 entries: every row's tier is its stability's, the
	// tiers run 1, 2, … down the order without gaps, and one holding a
	// single entry holds one that could change places with none.
	_, edition, err := read.Definition(ctx, "big")
	if err != nil {
		t.Fatal(err)
	}
	stab, err := read.Stability(ctx, "big", edition)
	if err != nil {
		t.Fatal(err)
	}
	size := map[int]int{}
	for _, st := range stab {
		size[st.Tier]++
	}
	for tier := 1; tier <= len(size); tier++ {
		if size[tier] == 0 {
			t.Fatalf("%d tiers, none numbered %d", len(size), tier)
		}
	}
	for slug, st := range stab {
		if (size[st.Tier] == 1) != (st.Others == 0) {
			t.Fatalf("%s: %d others, alone in tier %d: %v", slug, st.Others, st.Tier, size[st.Tier] == 1)
		}
	}
	checkTiers := func(doc *goquery.Document) {
		t.Helper()
		prev := 0
		doc.Find(`[data-testid="ranking-row"]`).Each(func(i int, row *goquery.Selection) {
			tier := row.Find(`[data-testid="tier"]`).AttrOr("data-tier", "")
			want := stab[row.AttrOr("data-entry", "")].Tier
			if tier != fmt.Sprint(want) || prev != 0 && want != prev && want != prev+1 {
				t.Errorf("row %d: tier %s, want %d after %d", i, tier, want, prev)
			}
			prev = want
		})
	}
	checkTiers(doc)
	t.Logf("%d tiers", len(size))

	status, doc, _ = get(fmt.Sprintf("/r/big?page=%d", pages))
	checkTiers(doc)
	if first, last, n := ranks(doc); status != 200 || n != largeEntries-(pages-1)*pageRows || first != fmt.Sprint((pages-1)*pageRows+1) || last != fmt.Sprint(largeEntries) {
		t.Errorf("last page: %d, %d rows ranked %s–%s", status, n, first, last)
	}
	if status, _, _ := get(fmt.Sprintf("/r/big?page=%d", pages+1)); status != http.StatusNotFound {
		t.Errorf("past the last page: %d, want 404", status)
	}

	// Sorted by a criterion, page 2 holds the next 100 by that score,
	// highest first, and costs what a page costs: the order is sorted
	// once per edition and read from the memo afterwards.
	def, _, err := read.Definition(ctx, "big")
	if err != nil {
		t.Fatal(err)
	}
	crit := def.Criteria[len(def.Criteria)-1]
	sorted := fmt.Sprintf("/r/big?sort=-c.%s&page=2", crit.Slug)
	start := time.Now()
	get(sorted)
	first := time.Since(start)
	start = time.Now()
	status, doc, _ = get(sorted)
	again := time.Since(start)
	t.Logf("sorted by %s, page 2: %v the first time, %v from the memo", crit.Slug, first.Round(time.Millisecond), again.Round(time.Millisecond))
	col := -1
	doc.Find(`thead th`).EachWithBreak(func(i int, th *goquery.Selection) bool {
		if th.AttrOr("data-testid", "") == "col-c."+crit.Slug {
			col = i
			return false
		}
		return true
	})
	prev, rows := 11, 0
	doc.Find(`[data-testid="ranking-row"]`).Each(func(_ int, row *goquery.Selection) {
		rows++
		v, err := strconv.Atoi(strings.TrimSpace(row.Children().Eq(col).Text()))
		if err != nil || v > prev {
			t.Errorf("sorted page 2: score %q after %d", row.Children().Eq(col).Text(), prev)
		}
		prev = v
	})
	if status != 200 || rows != pageRows || col < 0 {
		t.Errorf("sorted page 2: %d, %d rows, column %d", status, rows, col)
	}

	// An entry's page at size: its charts read the entry's rows and the
	// top ten's, never a whole edition.
	start = time.Now()
	status, doc, _ = get("/r/big/e/" + history.LargeEntry(5000))
	t.Logf("an entry's page: %v, charts %d", time.Since(start).Round(time.Millisecond), doc.Find("figure.pub-chart").Length())
	if status != 200 {
		t.Errorf("an entry's page: %d", status)
	}

	i := largeEntries * 6789 / 10_000 // entry 6789 of 10,000
	name := []rune(history.LargeName(i))
	for _, q := range []string{string(name[:2]), string(name), fmt.Sprintf("cloud %05d", i)} {
		status, doc, _ := get("/r/big?q=" + url.QueryEscape(q))
		rows := doc.Find(`[data-testid="ranking-row"]`)
		if status != 200 || rows.Length() != 1 || rows.AttrOr("data-entry", "") != history.LargeEntry(i) {
			t.Errorf("?q=%s: %d, %d rows, first %q", q, status, rows.Length(), rows.AttrOr("data-entry", ""))
		}
	}
	// One character: every entry holding it, paged, in rank order.
	holding := 0 // 199 of 10,000
	for j := range largeEntries {
		if strings.ContainsRune(history.LargeName(j), name[0]) {
			holding++
		}
	}
	status, doc, _ = get("/r/big?q=" + url.QueryEscape(string(name[:1])))
	if total := doc.Find(`[data-testid="ranking-pager"]`).AttrOr("data-total", ""); status != 200 || total != fmt.Sprint(holding) {
		t.Errorf("one character: %d, %s entries, want %d", status, total, holding)
	}
	if status, doc, _ := get("/r/big?q=" + url.QueryEscape("没有这个")); status != 200 || doc.Find(`[data-testid="none-named"]`).Length() != 1 {
		t.Errorf("a name nobody has: %d, no message", status)
	}
	if strings.Contains(doc.Find(`[data-testid="name-filter"]`).AttrOr("action", ""), "?") {
		t.Error("the name form posts to a URL with a query")
	}
	checkCompareAtScale(t, get)
}

// checkCompareAtScale: past compareListMax entries the compare page's
// pickers are text fields suggesting the top 100, which take a slug, a
// rank or a name; the page stays small (three lists of every entry were
// 2.1 MB at 10,000), and what matches nothing is refused naming its field.
func checkCompareAtScale(t *testing.T, get func(string) (int, *goquery.Document, []byte)) {
	t.Helper()
	status, doc, body := get("/r/big/compare?a=" + history.LargeEntry(1) + "&b=" + url.QueryEscape("cloud 00002") + "&c=%2342")
	cols := doc.Find(`[data-testid="compare-entry"]`)
	if status != 200 || cols.Length() != 3 || cols.Eq(0).AttrOr("data-entry", "") != history.LargeEntry(1) ||
		cols.Eq(1).AttrOr("data-entry", "") != history.LargeEntry(2) || !strings.Contains(cols.Eq(2).Text(), "#42") {
		t.Fatalf("compare by slug, name and rank: %d, columns %q", status, cols.Text())
	}
	if n := doc.Find(`#compare-entries option`).Length(); n != compareListMax || doc.Find(`[data-testid="compare-select-a"]`).Length() != 0 {
		t.Errorf("%d suggestions, want %d, and no lists of every entry", n, compareListMax)
	}
	if got := doc.Find(`[data-testid="compare-input-b"]`).AttrOr("value", ""); got != history.LargeEntry(2) {
		t.Errorf("the second field holds %q after the name was found, want its slug", got)
	}
	if len(body) > 200<<10 {
		t.Errorf("the compare page is %d KiB at %d entries", len(body)>>10, largeEntries)
	}
	if status, _, body := get("/r/big/compare?a=" + history.LargeEntry(1) + "&b=nobody-by-this-name"); status != 400 || !bytes.Contains(body, []byte("nobody-by-this-name")) {
		t.Errorf("a name nobody has: %d, want 400 naming it", status)
	}
}

// TestRankingPageSize renders page 1 of a ranking of 10,000 entries scored
// on eight criteria (the templates alone, from the benchmark's view model)
// and checks it stays within 100 KB gzipped, in both languages.
func TestRankingPageSize(t *testing.T) {
	for _, lang := range []string{i18n.En, i18n.Zh} {
		v := benchRankingView(largeEntries, lang)
		v.Pager = ui.NewPager(len(v.Rows), 1, pageRows, func(n int) string { return fmt.Sprintf("/r/gpu1k?page=%d", n) })
		v.Rows = v.Rows[:pageRows]
		var body bytes.Buffer
		if err := rankingPage(v).Render(templ.WithNonce(context.Background(), "n"), &body); err != nil {
			t.Fatal(err)
		}
		var gz bytes.Buffer
		zw := gzip.NewWriter(&gz)
		zw.Write(body.Bytes())
		zw.Close()
		t.Logf("%s: %d bytes, %d gzipped", lang, body.Len(), gz.Len())
		if gz.Len() > 100_000 {
			t.Errorf("%s: page 1 is %d bytes gzipped, more than 100 KB", lang, gz.Len())
		}
	}
}
