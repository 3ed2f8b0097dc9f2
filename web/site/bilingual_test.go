package site_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// TestEntryClaimInOneLanguage: the entry page shows a claim in the
// reader's language only, the other behind a disclosure labelled in the
// reader's language; the JSON of the same entry keeps both.
func TestEntryClaimInOneLanguage(t *testing.T) {
	t.Parallel()
	e := newSiteEnv(t)
	e.CrossValidate("ppio", "gpu-coverage", 4, domain.AddEvidence{
		Claim:     events.Text{Zh: "PPIO 列出了 RTX 4090", En: "PPIO lists the RTX 4090"},
		SourceURL: "https://example.org/ppio", Excerpt: "RTX 4090", ObservedOn: "2026-01-05",
	})
	e.Publish("test-ppio-gpu-coverage")

	for _, tt := range []struct {
		lang, shown, original, label string
	}{
		{"en", "PPIO lists the RTX 4090", "PPIO 列出了 RTX 4090", "Original"},
		{"zh", "PPIO 列出了 RTX 4090", "PPIO lists the RTX 4090", "原文"},
	} {
		res, body := e.Get("/r/gpu-cloud/e/ppio", "Accept-Language", tt.lang)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("%s: status %d", tt.lang, res.StatusCode)
		}
		doc, _ := goquery.NewDocumentFromReader(strings.NewReader(body))
		ev := doc.Find(`#score-gpu-coverage [data-testid="evidence"]`)
		claim, orig := ev.Find(`[data-testid="claim"]`), ev.Find(`details[data-testid="claim-original"]`)
		if claim.Length() != 1 || claim.Text() != tt.shown || claim.AttrOr("lang", "") != tt.lang {
			t.Errorf("%s: claim %q (lang %q), want %q", tt.lang, claim.Text(), claim.AttrOr("lang", ""), tt.shown)
		}
		if orig.Length() != 1 || orig.Find("summary").Text() != tt.label || orig.Find("span").Text() != tt.original {
			t.Errorf("%s: disclosure %q / %q, want %q / %q", tt.lang, orig.Find("summary").Text(), orig.Find("span").Text(), tt.label, tt.original)
		}
		// Outside the disclosure, the page holds the claim in one language.
		orig.Remove()
		if other := ev.Text(); strings.Contains(other, tt.original) {
			t.Errorf("%s: the other language shows outside its disclosure: %q", tt.lang, other)
		}
	}

	_, body := e.Get("/api/v1/rankings/gpu-cloud/entries/ppio")
	var entry struct {
		Scores []struct {
			Criterion string `json:"criterion"`
			Evidence  []struct {
				Claim events.Text `json:"claim"`
			} `json:"evidence"`
		} `json:"scores"`
	}
	if err := json.Unmarshal([]byte(body), &entry); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, s := range entry.Scores {
		for _, ev := range s.Evidence {
			found = found || s.Criterion == "gpu-coverage" && ev.Claim == events.Text{Zh: "PPIO 列出了 RTX 4090", En: "PPIO lists the RTX 4090"}
		}
	}
	if !found {
		t.Errorf("the entry's JSON does not keep both languages: %+v", entry)
	}
}

// TestEntryClaimWithoutOriginal: a claim in one language shows as it is
// in both interfaces, with no disclosure.
func TestEntryClaimWithoutOriginal(t *testing.T) {
	t.Parallel()
	e := newSiteEnv(t)
	e.CrossValidate("ppio", "gpu-coverage", 4, domain.AddEvidence{
		Claim:     events.Text{Zh: "只有中文"},
		SourceURL: "https://example.org/ppio", Excerpt: "RTX 4090", ObservedOn: "2026-01-05",
	})
	e.Publish("test-ppio-gpu-coverage")
	for _, lang := range []string{"en", "zh"} {
		_, body := e.Get("/r/gpu-cloud/e/ppio", "Accept-Language", lang)
		doc, _ := goquery.NewDocumentFromReader(strings.NewReader(body))
		ev := doc.Find(`#score-gpu-coverage [data-testid="evidence"]`)
		if got := ev.Find(`[data-testid="claim"]`).Text(); got != "只有中文" || ev.Find(`[data-testid="claim-original"]`).Length() != 0 {
			t.Errorf("%s: claim %q, %d disclosures", lang, got, ev.Find(`[data-testid="claim-original"]`).Length())
		}
	}
}
