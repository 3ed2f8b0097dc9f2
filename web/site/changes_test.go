package site

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/events/jetstream/jstest"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/projections/history"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/i18n"
)

// TestChanges: an entry's changes between the demo's first and newest
// editions, as JSON (…/changes.json and Accept: application/json, the same
// answer) and as a page in both languages: the rank parts are
// domain.SplitMove of the two hashed snapshots and add up to the move, the
// score changes are the editions' published changes with their proposals
// and evidence, the page has a form of two selects and says how the move
// is split; the entry page links to it; a bad from or to is 400 naming
// the field, an unknown entry 404.
func TestChanges(t *testing.T) {
	e, slug, latest := newHistoryEnv(t)
	ctx := t.Context()
	first, err := e.site.read.EditionSnapshot(ctx, slug, 1)
	if err != nil {
		t.Fatal(err)
	}
	last, err := e.site.read.EditionSnapshot(ctx, slug, latest)
	if err != nil {
		t.Fatal(err)
	}
	// The entry with the most published score changes in the span.
	entry, most := "", -1
	for _, se := range first.Snapshot.Entries {
		ch, err := e.site.read.PublishedChanges(ctx, slug, se.Slug, 1, latest)
		if err != nil {
			t.Fatal(err)
		}
		if len(ch) > most {
			entry, most = se.Slug, len(ch)
		}
	}
	if most < 1 {
		t.Fatal("no entry of edition 1 changed later: the test shows nothing")
	}
	want, ok := domain.SplitMove(first.Snapshot, last.Snapshot, entry)
	if !ok {
		t.Fatalf("%s not in both editions", entry)
	}
	base := "/r/" + slug + "/e/" + entry + "/changes"
	span := "?from=1&to=" + strconv.Itoa(latest)
	res, body := e.get(base + ".json" + span)
	var got apiChanges
	if res.StatusCode != 200 || json.Unmarshal([]byte(body), &got) != nil {
		t.Fatalf("changes.json: %d %.300s", res.StatusCode, body)
	}
	own, others, method := want.Parts()
	if got.Rank.From != want.RankFrom || got.Rank.To != want.RankTo || got.Rank.Own != own || got.Rank.Others != others ||
		got.Rank.Methodology != method || got.Rank.Own+got.Rank.Others+got.Rank.Methodology != got.Rank.From-got.Rank.To {
		t.Errorf("rank %+v, want %+v", got.Rank, want)
	}
	if got.Total.From+got.Total.Own+got.Total.Methodology != got.Total.To {
		t.Errorf("total parts %+v do not add up", got.Total)
	}
	scored, proven := 0, 0
	for _, sc := range got.Scores {
		if sc.Proposal == "" || sc.Edition < 2 || sc.Edition > latest {
			t.Errorf("score change %+v", sc)
		}
		scored++
		proven += len(sc.Evidence)
	}
	if scored == 0 || proven == 0 {
		t.Errorf("%s: %d score changes with %d evidence items", entry, scored, proven)
	}
	t.Logf("%s: %+v, %d score changes, %d methodology", entry, got.Rank, scored, len(got.Methodology))
	if res, again := e.get(base+span, "Accept", "application/json"); res.StatusCode != 200 || again != body {
		t.Errorf("Accept: application/json: %d, not the same answer", res.StatusCode)
	}

	for lang, how := range map[string]string{"en": "fixed order", "zh": "固定顺序"} {
		res, body := e.get(base+span, "Accept-Language", lang)
		doc, err := goquery.NewDocumentFromReader(strings.NewReader(body))
		if res.StatusCode != 200 || err != nil {
			t.Fatalf("%s: page %d %v", lang, res.StatusCode, err)
		}
		form := doc.Find(`form[data-testid="changes-form"]`)
		if form.AttrOr("method", "") != "get" || form.Find(`select[name="from"] option[selected]`).AttrOr("value", "") != "1" ||
			form.Find(`select[name="to"] option[selected]`).AttrOr("value", "") != strconv.Itoa(latest) {
			t.Errorf("%s: the form does not hold the span", lang)
		}
		parts := doc.Find(`[data-testid="changes-part"]`)
		if parts.Length() != 3 || parts.Eq(0).AttrOr("data-after", "") != strconv.Itoa(want.RankOwn) ||
			parts.Eq(1).AttrOr("data-after", "") != strconv.Itoa(want.RankOthers) || parts.Eq(2).AttrOr("data-after", "") != strconv.Itoa(want.RankTo) {
			t.Errorf("%s: %d parts", lang, parts.Length())
		}
		// The waterfall draws the same parts: the ranks after each step.
		var afters []string
		doc.Find(`[data-testid="why-chart"] [data-testid="chart-numbers"] tbody tr td:last-child`).Each(func(_ int, s *goquery.Selection) {
			afters = append(afters, s.Text())
		})
		if wantAfters := []string{"#" + strconv.Itoa(want.RankOwn), "#" + strconv.Itoa(want.RankOthers), "#" + strconv.Itoa(want.RankTo)}; !slices.Equal(afters, wantAfters) {
			t.Errorf("%s: the waterfall's numbers %v, want %v", lang, afters, wantAfters)
		}
		if !strings.Contains(doc.Find(`[data-testid="changes-how"]`).Text(), how) {
			t.Errorf("%s: the page does not say how the move is split", lang)
		}
		if n := doc.Find(`[data-testid="changes-score"]`).Length(); n != scored {
			t.Errorf("%s: %d score changes shown, want %d", lang, n, scored)
		}
		_, body = e.get("/r/"+slug+"/e/"+entry, "Accept-Language", lang)
		doc, _ = goquery.NewDocumentFromReader(strings.NewReader(body))
		if doc.Find(`[data-testid="changes-link"]`).AttrOr("href", "") != base {
			t.Errorf("%s: the entry page does not link to its changes", lang)
		}
	}

	for _, c := range []struct {
		query, field string
	}{
		{"?from=x&to=2", "from"},
		{"?from=0", "from"},
		{"?to=" + strconv.Itoa(latest+1), "to"},
		{"?from=2&to=1", "from"},
		{"?from=1&to=1", "from"},
	} {
		res, body := e.get(base + ".json" + c.query)
		var p struct {
			Errors []struct {
				Field string `json:"field"`
			} `json:"errors"`
		}
		if res.StatusCode != http.StatusBadRequest || json.Unmarshal([]byte(body), &p) != nil || len(p.Errors) != 1 || p.Errors[0].Field != c.field {
			t.Errorf("%s: %d %.200s, want 400 naming %s", c.query, res.StatusCode, body, c.field)
		}
		if res, body := e.get(base+c.query, "Accept-Language", "zh"); res.StatusCode != http.StatusBadRequest || !strings.Contains(body, c.field) {
			t.Errorf("page %s: %d, want 400 naming %s", c.query, res.StatusCode, c.field)
		}
	}
	// A span over a weight change: every entry's methodology changes add
	// up to the methodology part of its total, and some are listed.
	moved := 0
	for n := 2; n <= latest && moved == 0; n++ {
		a, err := e.site.read.EditionSnapshot(ctx, slug, n-1)
		if err != nil {
			t.Fatal(err)
		}
		b, err := e.site.read.EditionSnapshot(ctx, slug, n)
		if err != nil {
			t.Fatal(err)
		}
		if reflect.DeepEqual(a.Snapshot.Weights, b.Snapshot.Weights) {
			continue
		}
		for _, se := range a.Snapshot.Entries {
			res, body := e.get("/r/" + slug + "/e/" + se.Slug + "/changes.json?from=" + strconv.Itoa(n-1) + "&to=" + strconv.Itoa(n))
			var c apiChanges
			if res.StatusCode != 200 || json.Unmarshal([]byte(body), &c) != nil {
				t.Fatalf("%s %d→%d: %d %.200s", se.Slug, n-1, n, res.StatusCode, body)
			}
			sum := 0
			for _, w := range c.Methodology {
				sum += w.Effect
			}
			if sum != c.Total.Methodology {
				t.Errorf("%s %d→%d: methodology changes add up to %d, the part is %d", se.Slug, n-1, n, sum, c.Total.Methodology)
			}
			if len(c.Methodology) > 0 {
				moved++
			}
		}
		t.Logf("editions %d→%d change the weights %v → %v: %d entries' totals moved by them", n-1, n, a.Snapshot.Weights, b.Snapshot.Weights, moved)
	}
	if moved == 0 {
		t.Error("no weight change moved an entry's total: the methodology part is untested")
	}

	// Without a query: the newest edition against the one before, or
	// against the entry's first edition when that is later.
	for _, se := range last.Snapshot.Entries {
		ev, err := e.site.read.Entry(ctx, slug, se.Slug)
		if err != nil {
			t.Fatal(err)
		}
		since := latest
		for _, h := range ev.History {
			since = min(since, h.Edition)
		}
		if since < latest-1 && se.Slug != entry {
			continue
		}
		res, body := e.get("/r/" + slug + "/e/" + se.Slug + "/changes")
		doc, _ := goquery.NewDocumentFromReader(strings.NewReader(body))
		from := doc.Find(`select[name="from"] option[selected]`).AttrOr("value", "")
		if want := min(max(latest-1, since), latest); res.StatusCode != 200 || from != strconv.Itoa(want) ||
			(want == latest) != (doc.Find(`[data-testid="changes-nothing"]`).Length() == 1) {
			t.Errorf("%s (since edition %d): %d, from %s, want %d", se.Slug, since, res.StatusCode, from, want)
		}
	}

	// An entry not yet in edition from: a bad from.
	inFirst := map[string]bool{}
	for _, se := range first.Snapshot.Entries {
		inFirst[se.Slug] = true
	}
	absent := 0
	for _, se := range last.Snapshot.Entries {
		if inFirst[se.Slug] {
			continue
		}
		absent++
		q := "/r/" + slug + "/e/" + se.Slug + "/changes.json?from=1&to=" + strconv.Itoa(latest)
		if res, body := e.get(q); res.StatusCode != http.StatusBadRequest || !strings.Contains(body, `"field":"from"`) && !strings.Contains(body, `"field": "from"`) {
			t.Errorf("%s: %d %.200s, want 400 naming from", q, res.StatusCode, body)
		}
		break
	}
	if absent == 0 {
		t.Error("every entry of the newest edition is in the first: the absent case is untested")
	}

	for _, target := range []string{"/r/" + slug + "/e/nobody/changes", "/r/" + slug + "/e/nobody/changes.json"} {
		if res, _ := e.get(target); res.StatusCode != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", target, res.StatusCode)
		}
	}
}

// newHistoryEnv serves a generated history (history.Generate: score
// changes, several editions, and with seed 7 weight changes between
// editions 4 and 5, and 5 and 6, of s7-r1) and returns the ranking with
// the most editions and its newest edition's number.
func newHistoryEnv(t *testing.T) (*env, string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
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
	list, err := read.PublishedRankings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	slug, latest := "", 0
	for _, r := range list {
		if r.Edition > latest {
			slug, latest = r.Slug, r.Edition
		}
	}
	if latest < 2 {
		t.Fatalf("the history has %d editions at most: nothing to compare", latest)
	}
	s := New(Config{Read: read, Log: slog.New(slog.DiscardHandler)})
	mux := http.NewServeMux()
	s.Routes(mux, func(h http.Handler) http.Handler { return h })
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rq := &httpx.Request{Lang: i18n.Choose(w, r, false), Nonce: "test-nonce", Clock: time.Now, Now: time.Now()}
		mux.ServeHTTP(w, r.WithContext(httpx.NewContext(r.Context(), rq)))
	})
	return &env{t: t, site: s, handler: h}, slug, latest
}

// TestChangesOneEdition: with one edition there is nothing to compare: the
// page says so (200), and the JSON, which has no answer, names from.
func TestChangesOneEdition(t *testing.T) {
	e := newEnv(t, 0)
	if n, _ := e.latestEdition(); n != 1 {
		t.Skipf("the demo has %d editions", n)
	}
	_, body := e.get("/api/v1/rankings/" + demo.RankingSlug)
	var list struct {
		Entries []struct {
			Slug string `json:"slug"`
		} `json:"entries"`
	}
	if json.Unmarshal([]byte(body), &list) != nil || len(list.Entries) == 0 {
		t.Fatalf("ranking JSON %.200s", body)
	}
	base := "/r/" + demo.RankingSlug + "/e/" + list.Entries[0].Slug + "/changes"
	for lang, words := range map[string]string{"en": "no earlier edition", "zh": "更早一期"} {
		res, body := e.get(base, "Accept-Language", lang)
		doc, _ := goquery.NewDocumentFromReader(strings.NewReader(body))
		if res.StatusCode != 200 || !strings.Contains(doc.Find(`[data-testid="changes-nothing"]`).Text(), words) {
			t.Errorf("%s: %d, %q", lang, res.StatusCode, doc.Find(`[data-testid="changes-nothing"]`).Text())
		}
	}
	if res, body := e.get(base + ".json"); res.StatusCode != http.StatusBadRequest || !strings.Contains(body, `"from"`) {
		t.Errorf("JSON: %d %.200s, want 400 naming from", res.StatusCode, body)
	}
}
