package site

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/demo"
)

// TestTiers: every entry's tier, recomputed here from the edition's hashed
// snapshot, is in the ranking's JSON and the entry's, beside the rank on
// the ranking page and the entry page in both languages, and the
// methodology page says how tiers are formed; under a scenario's weights
// there are none.
func TestTiers(t *testing.T) {
	e := newEnv(t, 0)
	ctx := t.Context()
	n, _ := e.latestEdition()
	snap, err := e.site.read.EditionSnapshot(ctx, demo.RankingSlug, n)
	if err != nil {
		t.Fatal(err)
	}
	var s domain.Snapshot
	if err := json.Unmarshal(snap.Canonical, &s); err != nil {
		t.Fatal(err)
	}
	want := domain.Stability(s)
	tiers := map[int]bool{}
	for _, st := range want {
		tiers[st.Tier] = true
	}
	t.Logf("%d entries in %d tiers", len(want), len(tiers))

	res, body := e.get("/api/v1/rankings/" + demo.RankingSlug)
	var list struct {
		Entries []struct {
			Slug string `json:"slug"`
			Tier int    `json:"tier"`
		} `json:"entries"`
	}
	if res.StatusCode != 200 || json.Unmarshal([]byte(body), &list) != nil || len(list.Entries) != len(want) {
		t.Fatalf("ranking JSON: %d %.300s", res.StatusCode, body)
	}
	for _, en := range list.Entries {
		if en.Tier < 1 || en.Tier != want[en.Slug].Tier {
			t.Errorf("%s: tier %d in the list, want %d", en.Slug, en.Tier, want[en.Slug].Tier)
		}
		_, body := e.get("/api/v1/rankings/" + demo.RankingSlug + "/entries/" + en.Slug)
		var one struct {
			Tier int `json:"tier"`
		}
		if json.Unmarshal([]byte(body), &one) != nil || one.Tier != want[en.Slug].Tier {
			t.Errorf("%s: tier %d in the entry's JSON, want %d", en.Slug, one.Tier, want[en.Slug].Tier)
		}
	}
	_, body = e.get("/api/v1/rankings/" + demo.RankingSlug + "?scenario=" + s.Scenarios[0].Slug)
	if strings.Contains(body, `"tier"`) {
		t.Errorf("tiers under a scenario's weights: %.300s", body)
	}

	for lang, words := range map[string][2]string{"en": {"tier", "connected group"}, "zh": {"档", "连通组"}} {
		res, body := e.get("/r/"+demo.RankingSlug, "Accept-Language", lang)
		doc, err := goquery.NewDocumentFromReader(strings.NewReader(body))
		if res.StatusCode != 200 || err != nil {
			t.Fatalf("%s: ranking page %d %v", lang, res.StatusCode, err)
		}
		rows := doc.Find(`[data-testid="ranking-row"]`)
		if rows.Length() != len(want) {
			t.Fatalf("%s: %d rows", lang, rows.Length())
		}
		rows.Each(func(_ int, row *goquery.Selection) {
			slug := row.AttrOr("data-entry", "")
			tier := row.Find(`[data-testid="tier"]`)
			if tier.AttrOr("data-tier", "") != strconv.Itoa(want[slug].Tier) || !strings.Contains(strings.ToLower(tier.Text()), words[0]) ||
				!strings.Contains(tier.Text(), strconv.Itoa(want[slug].Tier)) {
				t.Errorf("%s: %s's tier %q (%s), want %d", lang, slug, tier.Text(), tier.AttrOr("data-tier", ""), want[slug].Tier)
			}
		})
		slug := list.Entries[0].Slug
		_, body = e.get("/r/"+demo.RankingSlug+"/e/"+slug, "Accept-Language", lang)
		doc, _ = goquery.NewDocumentFromReader(strings.NewReader(body))
		tier := doc.Find(`[data-testid="entry-tier"]`)
		if tier.AttrOr("data-tier", "") != strconv.Itoa(want[slug].Tier) || !strings.Contains(strings.ToLower(tier.Text()), words[0]) || tier.AttrOr("title", "") == "" {
			t.Errorf("%s: entry page tier %q (%s), want %d", lang, tier.Text(), tier.AttrOr("data-tier", ""), want[slug].Tier)
		}
		_, body = e.get("/r/"+demo.RankingSlug+"/methodology", "Accept-Language", lang)
		doc, _ = goquery.NewDocumentFromReader(strings.NewReader(body))
		if m := doc.Find(`[data-testid="method-tiers"]`).Text(); !strings.Contains(m, words[1]) {
			t.Errorf("%s: the methodology page says %q about tiers", lang, m)
		}
	}
	_, body = e.get("/r/" + demo.RankingSlug + "?scenario=" + s.Scenarios[0].Slug)
	if strings.Contains(body, `data-testid="tier"`) {
		t.Error("tiers shown under a scenario's weights")
	}
}
