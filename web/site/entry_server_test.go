package site_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/i18n"
)

func TestPublicEntryEvidence(t *testing.T) {
	t.Parallel()
	e := newSiteEnv(t)
	observed := time.Now().AddDate(0, 0, -3).Format(time.DateOnly)
	e.CrossValidate("ppio", "gpu-coverage", 4, domain.AddEvidence{
		Claim:     events.Text{En: `PPIO lists <script>alert("x")</script> GPUs`},
		SourceURL: "https://example.org/ppio?page=1&lang=en", Section: "pricing",
		Excerpt: `"<b>RTX 4090</b>" on demand`, ObservedOn: observed, ValidForDays: 365,
	})
	e.Publish("test-ppio-gpu-coverage")

	res, body := e.Get("/r/gpu-cloud/e/ppio", "Accept-Language", "en")
	if res.StatusCode != http.StatusOK {
		t.Fatalf("entry page: %d", res.StatusCode)
	}
	if strings.Contains(body, "<script>alert") || strings.Contains(body, "<b>RTX") {
		t.Error("evidence text reached the page unescaped")
	}
	doc, _ := goquery.NewDocumentFromReader(strings.NewReader(body))
	block := doc.Find("#score-gpu-coverage")
	if block.AttrOr("data-scored", "") != "true" || block.Find(`[data-testid="score"]`).First().Text() != "4" {
		t.Fatalf("the new score is not shown: %q", block.Text())
	}
	ev := block.Find(`[data-testid="evidence"]`)
	if ev.Length() != 1 || ev.AttrOr("id", "") != "ev-test-ppio-gpu-coverage-e1" {
		t.Fatalf("evidence items: %d, id %q", ev.Length(), ev.AttrOr("id", ""))
	}
	if got := ev.Find(".pub-claim").Text(); got != `PPIO lists <script>alert("x")</script> GPUs` {
		t.Errorf("claim %q", got)
	}
	if got := ev.Find("blockquote").Text(); got != `"<b>RTX 4090</b>" on demand` {
		t.Errorf("excerpt %q", got)
	}
	if href := ev.Find(`[data-testid="source-link"]`).AttrOr("href", ""); href != "https://example.org/ppio?page=1&lang=en" {
		t.Errorf("source link %q", href)
	}
	if ev.Find(`[data-testid="stale"]`).Length() != 0 {
		t.Error("fresh evidence marked stale")
	}
	if !strings.Contains(ev.Text(), "pricing") || !strings.Contains(ev.Text(), "observed "+i18n.Day(i18n.En, observed)) {
		t.Errorf("section or observed date missing: %q", ev.Text())
	}
	// The demo's evidence names its source: shown as text, never a link.
	named := doc.Find("#score-delivery-forms [data-testid=evidence]").First()
	if named.Find("a[data-testid=source-link]").Length() != 0 || !strings.Contains(named.Find("cite").Text(), "GPU算力租赁市场观察") {
		t.Errorf("named source: %q", named.Text())
	}
	// Rank history has a point per edition for the entry in view, joined
	// by a line, drawn beside the top ten's.
	focus := doc.Find(`[data-testid="history-chart"] .pub-focus`)
	if n := focus.Find(`path.pub-mark`).Length(); n != 2 || focus.Find("polyline").Length() != 1 {
		t.Errorf("history chart: %d points, %d lines", n, focus.Find("polyline").Length())
	}
	// Attributes are shown by their labels.
	attrs := doc.Find(`[data-testid="attributes"]`).Text()
	for _, want := range []string{"Billing & elasticity", "Spot (preemptible) capacity", "Overseas regions"} {
		if !strings.Contains(attrs, want) {
			t.Errorf("attributes lack %q", want)
		}
	}

	// Zhixingyun's stock evidence (valid 30 days, observed 40 days before
	// the seed) may be out of date; in Chinese too, with Chinese dates.
	doc = e.Page("/r/gpu-cloud/e/zhixingyun", "Accept-Language", "zh-CN")
	stale := doc.Find(`#score-gpu-coverage [data-testid="stale"]`)
	if stale.Length() == 0 || stale.First().Text() != "可能已过时" {
		t.Errorf("stale marks: %d %q", stale.Length(), stale.First().Text())
	}
	if doc.Find(`#score-delivery-forms [data-testid="stale"]`).Length() != 0 {
		t.Error("evidence without a validity marked stale")
	}
	if !strings.Contains(doc.Find("#score-gpu-coverage .pub-source").First().Text(), "年") {
		t.Error("observed date not in Chinese")
	}
	if doc.Find(`[data-testid="unscored"]`).Length() != 1 { // graphics is not scored for it
		t.Errorf("unscored criteria: %d", doc.Find(`[data-testid="unscored"]`).Length())
	}
	if res, _ := e.Get("/r/gpu-cloud/e/no-such-entry"); res.StatusCode != http.StatusNotFound {
		t.Errorf("unknown entry: %d", res.StatusCode)
	}
}
