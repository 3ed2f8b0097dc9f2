package site

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/demo"
)

// TestStability: the stability the API shows for each entry is
// domain.Stability of the edition's hashed snapshot, recomputed here from
// the stored bytes; the entry page words it in both languages; under a
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
		if w == nil {
			w = []domain.Swap{}
		}
		if en.Stability == nil || en.Stability.Stable != (len(w) == 0) || !reflect.DeepEqual(en.Stability.Swaps, w) {
			t.Errorf("%s: stability %+v, want %+v", en.Slug, en.Stability, w)
		}
		if len(w) > 0 && swapping == "" {
			swapping = en.Slug
		}
	}
	if swapping == "" {
		t.Fatal("no demo entry could swap: the test shows nothing")
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
		if n := doc.Find(`[data-testid="stability-swap"]`).Length(); n != len(want[swapping]) ||
			!strings.Contains(doc.Find(`[data-testid="stability"]`).Text(), words) {
			t.Errorf("%s: %d swap lines (want %d): %q", lang, n, len(want[swapping]), doc.Find(`[data-testid="stability"]`).Text())
		}
	}

	res, body = e.get("/api/v1/rankings/" + demo.RankingSlug + "?scenario=" + s.Scenarios[0].Slug)
	if res.StatusCode != 200 || strings.Contains(body, `"stability"`) {
		t.Errorf("a scenario's standing carries stability (%d)", res.StatusCode)
	}
}
