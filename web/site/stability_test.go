package site

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/ui"
)

// TestStability: the stability the API shows for each entry is
// domain.Stability of the edition's hashed snapshot, recomputed here from
// the stored bytes; the entry page words it in both languages, the
// conditions for the nearest entries and how many more there are; under a
// scenario's weights, which it does not describe, it is absent.
func TestStability(t *testing.T) {
	e := newEnv(t, 0)
	ctx := t.Context()
	snap, err := e.site.read.EditionSnapshot(ctx, demo.RankingSlug, 1)
	if err != nil {
		t.Fatal(err)
	}
	var s domain.Snapshot // from the bytes the snapshot hash covers
	if err := json.Unmarshal(snap.Canonical, &s); err != nil {
		t.Fatal(err)
	}
	want := domain.Stability(s)

	res, body := e.get("/api/v1/rankings/" + demo.RankingSlug)
	var got struct {
		Entries []struct {
			Slug      string        `json:"slug"`
			Stability *apiStability `json:"stability"`
		} `json:"entries"`
	}
	if res.StatusCode != 200 || json.Unmarshal([]byte(body), &got) != nil || len(got.Entries) != 9 {
		t.Fatalf("ranking JSON: %d %.300s", res.StatusCode, body)
	}
	swapping := ""
	for _, en := range got.Entries {
		w := want[en.Slug]
		if w.Swaps == nil {
			w.Swaps = []domain.Swap{}
		}
		// The list carries the summary; the entry's own answer the
		// conditions as well.
		if en.Stability == nil || en.Stability.Stable != (w.Others == 0) || en.Stability.Others != w.Others ||
			en.Stability.BestRank != w.Best || en.Stability.WorstRank != w.Worst || en.Stability.Swaps != nil {
			t.Errorf("%s: stability in the list %+v, want %+v without swaps", en.Slug, en.Stability, w)
		}
		res, body := e.get("/api/v1/rankings/" + demo.RankingSlug + "/entries/" + en.Slug)
		var one struct {
			Stability *apiStability `json:"stability"`
		}
		if res.StatusCode != 200 || json.Unmarshal([]byte(body), &one) != nil || one.Stability == nil ||
			one.Stability.Others != w.Others || !reflect.DeepEqual(one.Stability.Swaps, w.Swaps) {
			t.Errorf("%s: the entry's stability %+v, want %+v", en.Slug, one.Stability, w)
		}
		if w.Others > domain.StabilityNearest && swapping == "" {
			swapping = en.Slug // one with more to tell than is listed
		}
	}
	if swapping == "" {
		t.Fatalf("no demo entry could swap with more than %d others: the test shows nothing", domain.StabilityNearest)
	}
	for _, en := range got.Entries {
		t.Logf("%s: %+v", en.Slug, en.Stability)
	}

	for lang, words := range map[string]string{"en": "Could swap with", "zh": "互换名次"} {
		res, body := e.get("/r/"+demo.RankingSlug+"/e/"+swapping, "Accept-Language", lang)
		doc, err := goquery.NewDocumentFromReader(strings.NewReader(body))
		if res.StatusCode != 200 || err != nil {
			t.Fatalf("entry page: %d %v", res.StatusCode, err)
		}
		if n := doc.Find(`[data-testid="stability-swap"]`).Length(); n != len(want[swapping].Swaps) ||
			!strings.Contains(doc.Find(`[data-testid="stability"]`).Text(), words) {
			t.Errorf("%s: %d swap lines (want %d): %q", lang, n, len(want[swapping].Swaps), doc.Find(`[data-testid="stability"]`).Text())
		}
		listed := map[string]bool{}
		for _, sw := range want[swapping].Swaps {
			listed[sw.With] = true
		}
		more := map[string]string{"en": fmt.Sprintf("and %d more", want[swapping].Others-len(listed)),
			"zh": fmt.Sprintf("另有 %d 个", want[swapping].Others-len(listed))}[lang]
		rng := map[string]string{"en": fmt.Sprintf("between %d and %d", want[swapping].Best, want[swapping].Worst),
			"zh": fmt.Sprintf("在第 %d 至第 %d 名之间", want[swapping].Best, want[swapping].Worst)}[lang]
		if got := doc.Find(`[data-testid="stability-range"]`).Text(); !strings.Contains(got, rng) {
			t.Errorf("%s: range %q, want %q", lang, got, rng)
		}
		if got := doc.Find(`[data-testid="stability-more"]`).Text(); len(listed) != domain.StabilityNearest || !strings.Contains(got, more) {
			t.Errorf("%s: %d listed, more %q, want %q", lang, len(listed), got, more)
		}
	}

	res, body = e.get("/api/v1/rankings/" + demo.RankingSlug + "?scenario=" + s.Scenarios[0].Slug)
	if res.StatusCode != 200 || strings.Contains(body, `"stability"`) {
		t.Errorf("a scenario's standing carries stability (%d)", res.StatusCode)
	}
}

// TestStabilityBounded1000: in a ranking of 1000 entries all tied, every
// entry could change places with all 999 others; the API's stability for
// the whole ranking stays small (conditions for the nearest entries only)
// and the pages say how many more there are, in both languages.
func TestStabilityBounded1000(t *testing.T) {
	r := &domain.Ranking{Slug: "big", Criteria: []events.Criterion{{Slug: "a", Weight: 40}, {Slug: "b", Weight: 35}, {Slug: "c", Weight: 25}}}
	ed := &domain.Edition{Number: 1, Entries: map[string]*domain.PublishedEntry{}}
	for i := range 1000 {
		slug := fmt.Sprintf("e%04d", i)
		ed.Entries[slug] = &domain.PublishedEntry{Slug: slug, Scores: map[string]int{"a": 5, "b": 5, "c": 5}}
	}
	snap := domain.BuildSnapshot(r, ed)
	st := domain.Stability(snap)
	all := make([]*apiStability, 0, len(snap.Entries))
	for _, e := range snap.Entries {
		a := apiStabilityOf(st, e.Slug, true)
		// Each can fall to last (its own score removed) and, but the
		// first, rise one place (one above it falling behind).
		if a == nil || a.Stable || a.Others != 999 || len(a.Swaps) == 0 || len(a.Swaps) > 2*domain.StabilityNearest ||
			a.WorstRank != 1000 || a.BestRank != max(1, e.Rank-1) {
			t.Fatalf("%s: %+v", e.Slug, a)
		}
		all = append(all, apiStabilityOf(st, e.Slug, false))
	}
	b, err := json.Marshal(all)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > 100<<10 || strings.Contains(string(b), `"swaps"`) {
		t.Errorf("the stability of 1000 entries in the ranking's list is %d bytes", len(b))
	}
	t.Logf("stability of 1000 tied entries: %d bytes as JSON", len(b))
	for lang, words := range map[string]string{"en": "and 996 more entries", "zh": "另有 996 个条目"} {
		v := stabilityOf(ui.Page{Lang: lang}, st, "e0500", nil, nil)
		if !v.Known || len(v.Lines) == 0 || len(v.Lines) > 2*domain.StabilityNearest || !strings.Contains(v.More, words) ||
			!strings.Contains(v.Summary, "999") || !strings.Contains(v.Range, "500") || !strings.Contains(v.Range, "1000") {
			t.Errorf("%s: %+v", lang, v)
		}
	}
}
