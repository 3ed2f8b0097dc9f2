package site

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/crossrank/crossrank/events/jetstream/jstest"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/projections/history"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/i18n"
)

// siteOver serves read with rows a page, as web's middleware would serve
// a reader who is not signed in.
func siteOver(t *testing.T, read *projections.Store, rows int) *env {
	t.Helper()
	s := New(Config{Read: read, Log: slog.New(slog.DiscardHandler), Rows: rows})
	mux := http.NewServeMux()
	s.Routes(mux, func(h http.Handler) http.Handler { return h })
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rq := &httpx.Request{Lang: i18n.Choose(w, r, false), Nonce: "test-nonce", Clock: time.Now, Now: time.Now()}
		mux.ServeHTTP(w, r.WithContext(httpx.NewContext(r.Context(), rq)))
	})
	return &env{t: t, site: s, handler: h}
}

// doc gets target in English and parses it; it fails unless the status
// is want.
func (e *env) doc(target string, want int) (*goquery.Document, string) {
	e.t.Helper()
	res, body := e.get(target, "Accept-Language", "en")
	if res.StatusCode != want {
		e.t.Fatalf("%s: %d, want %d", target, res.StatusCode, want)
	}
	d, err := goquery.NewDocumentFromReader(strings.NewReader(body))
	if err != nil {
		e.t.Fatal(err)
	}
	return d, body
}

// changeKey names one change of an edition: its proposal and target.
func changeKey(proposal, target string) string { return proposal + "|" + target }

// walkChanges follows the changes' pager of an edition's page from
// target to its last page and returns every change shown, page by page,
// checking on the way that each page's groups name distinct entries, in
// order, and that a group repeats an entry of the page before only as its
// first, marked continued.
func walkChanges(t *testing.T, e *env, target string) (keys []string, pages int) {
	t.Helper()
	prevLast := ""
	for target != "" {
		doc, _ := e.doc(target, http.StatusOK)
		pages++
		var entries []string
		doc.Find(`[data-testid="change-group"]`).Each(func(i int, g *goquery.Selection) {
			entry := g.AttrOr("data-entry", "")
			continued := strings.Contains(g.Find("summary").Text(), "continued")
			if (i == 0 && entry == prevLast) != continued {
				t.Errorf("%s: group %s continued %v, the page before ended with %s", target, entry, continued, prevLast)
			}
			entries = append(entries, entry)
			g.Find(`[data-testid="change-row"]`).Each(func(_ int, r *goquery.Selection) {
				keys = append(keys, changeKey(r.AttrOr("data-proposal", ""), r.AttrOr("data-target", "")))
			})
		})
		if !slices.IsSorted(entries) || len(slices.Compact(slices.Clone(entries))) != len(entries) {
			t.Errorf("%s: groups %v, want distinct entries in order", target, entries)
		}
		if len(entries) > 0 {
			prevLast = entries[len(entries)-1]
		}
		next, ok := doc.Find(`[data-testid="changes-pager"] [data-testid="page-next"]`).Attr("href")
		if !ok {
			break
		}
		// A browser keeps the fragment (#edition-changes) to itself.
		target, _, _ = strings.Cut(next, "#")
	}
	return keys, pages
}

// sameChanges reports how got differs from the edition's changes (want):
// each must be shown exactly once.
func sameChanges(got []string, want []projections.EditionChange) error {
	seen := map[string]int{}
	for _, k := range got {
		seen[k]++
	}
	for _, c := range want {
		k := changeKey(c.Proposal, c.Target)
		if seen[k] != 1 {
			return fmt.Errorf("change %s shown %d times", k, seen[k])
		}
		delete(seen, k)
	}
	if len(seen) > 0 || len(got) != len(want) {
		return fmt.Errorf("%d changes shown, want %d (%d not in the edition)", len(got), len(want), len(seen))
	}
	return nil
}

// TestEditionPage reads an edition of a generated history at seven rows a
// page: the summary, the ranking after, the largest moves and the changes
// come in that order; the counts are the edition's; paging reaches every
// change exactly once, grouped by entry; the filters by entry (slug or
// name) and by criterion keep exactly their changes; a page past the last
// is 404 and a malformed criterion 400; the words are the catalog's in
// Chinese too.
func TestEditionPage(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	store := jstest.Start(t).Store
	if err := history.Generate(ctx, store, 3000, 7); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "read.db")
	if _, err := projections.Rebuild(ctx, store, path); err != nil {
		t.Fatal(err)
	}
	read, err := projections.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { read.Close() })
	const rows = 7
	e := siteOver(t, read, rows)

	// The edition after the first with the most changes.
	eds, err := read.Editions(ctx, "", 1000)
	if err != nil {
		t.Fatal(err)
	}
	var pick projections.EditionSummary
	for _, ed := range eds {
		if ed.Number > 1 && ed.Changes > pick.Changes {
			pick = ed
		}
	}
	if pick.Changes <= 2*rows {
		t.Fatalf("the largest later edition has %d changes: too few to page", pick.Changes)
	}
	d, err := read.Edition(ctx, pick.Ranking, pick.Number)
	if err != nil {
		t.Fatal(err)
	}
	base := fmt.Sprintf("/r/%s/editions/%d", pick.Ranking, pick.Number)
	doc, _ := e.doc(base, http.StatusOK)

	var order []string
	doc.Find(`[data-section]`).Each(func(_ int, s *goquery.Selection) { order = append(order, s.AttrOr("data-section", "")) })
	order = slices.DeleteFunc(order, func(s string) bool { return s == "new" })
	if want := []string{"summary", "ranking", "largest", "changes", "about"}; !slices.Equal(order, want) {
		t.Errorf("sections %v, want %v", order, want)
	}

	stat := func(key string) string {
		return doc.Find(`[data-testid="edition-stat"][data-stat="`+key+`"]`).AttrOr("data-n", "")
	}
	scores, entries, up, down, added := 0, map[string]bool{}, 0, 0, 0
	for _, c := range d.Changes {
		if c.Kind() == "score" {
			scores++
		}
		entries[c.Entry] = true
	}
	largest := 0
	for _, m := range d.Moves {
		delta, ok := m.Delta()
		switch {
		case !ok:
			added++
		case delta > 0:
			up++
		case delta < 0:
			down++
		}
		largest = max(largest, delta, -delta)
	}
	for key, want := range map[string]int{"scores": scores, "attributes": len(d.Changes) - scores, "changed": len(entries),
		"up": up, "down": down, "added": added, "proposals": len(d.Proposals)} {
		if got := stat(key); got != fmt.Sprint(want) {
			t.Errorf("summary %s = %s, want %d", key, got, want)
		}
	}

	ranks := doc.Find(`[data-testid="move-row"]`)
	if ranks.Length() != min(rows, len(d.Moves)) || ranks.First().AttrOr("data-after", "") != "1" {
		t.Errorf("ranking after: %d rows from #%s", ranks.Length(), ranks.First().AttrOr("data-after", ""))
	}
	if doc.Find(`[data-testid="full-ranking"]`).Length() != 1 {
		t.Error("no link to the whole ranking")
	}
	var sizes []int
	doc.Find(`[data-testid="largest-move"]`).Each(func(_ int, s *goquery.Selection) {
		var before, after int
		fmt.Sscan(s.Find("td").Eq(3).Text(), &before)
		fmt.Sscan(s.AttrOr("data-after", ""), &after)
		sizes = append(sizes, max(before-after, after-before))
	})
	if largest > 0 && (len(sizes) == 0 || sizes[0] != largest || !slices.IsSortedFunc(sizes, func(a, b int) int { return b - a })) {
		t.Errorf("largest moves %v, the edition's largest %d", sizes, largest)
	}

	keys, pages := walkChanges(t, e, base)
	if err := sameChanges(keys, d.Changes); err != nil {
		t.Error(err)
	}
	if want := (len(d.Changes) + rows - 1) / rows; pages != want {
		t.Errorf("%d pages, want %d", pages, want)
	}
	e.doc(fmt.Sprintf("%s?page=%d", base, pages+1), http.StatusNotFound)
	e.doc(base+"?criterion=nonsense", http.StatusBadRequest)

	// By entry: its slug or its English name keep its changes, open.
	entry, name := d.Changes[0].Entry, d.Changes[0].EntryName.En
	var ofEntry []projections.EditionChange
	for _, c := range d.Changes {
		if c.Entry == entry {
			ofEntry = append(ofEntry, c)
		}
	}
	for _, q := range []string{entry, name} {
		keys, _ := walkChanges(t, e, base+"?entry="+url.QueryEscape(q))
		if err := sameChanges(keys, ofEntry); err != nil {
			t.Errorf("entry %q: %v", q, err)
		}
	}
	fd, _ := e.doc(base+"?entry="+entry, http.StatusOK)
	if _, open := fd.Find(`[data-testid="change-group"]`).Attr("open"); !open {
		t.Error("the group of the entry filtered to is closed")
	}
	if nd, _ := e.doc(base+"?entry=no-such-entry", http.StatusOK); nd.Find(`[data-testid="changes-none"]`).Length() != 1 {
		t.Error("an unknown entry does not say so")
	}

	// By criterion: the first change's target.
	target := d.Changes[0].Target
	var ofTarget []projections.EditionChange
	for _, c := range d.Changes {
		if c.Target == target {
			ofTarget = append(ofTarget, c)
		}
	}
	keys, _ = walkChanges(t, e, base+"?criterion="+url.QueryEscape(target))
	if err := sameChanges(keys, ofTarget); err != nil {
		t.Errorf("criterion %s: %v", target, err)
	}

	res, body := e.get(base+"?lang=zh", "Accept-Language", "zh-CN")
	if res.StatusCode != http.StatusOK || !strings.Contains(body, ">概要</h2>") || !strings.Contains(body, "按条目查看变更") {
		t.Errorf("in Chinese: %d, summary heading %v", res.StatusCode, strings.Contains(body, "概要"))
	}
}
