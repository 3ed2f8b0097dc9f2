package site_test

import (
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/crossrank/crossrank/web/webtest"
)

func TestPublicEditionChangelog(t *testing.T) {
	t.Parallel()
	e := newSiteEnv(t)
	e.Publish("demo-qingjiao-2")

	doc := e.Page("/r/gpu-cloud/editions", "Accept-Language", "en")
	if got := webtest.Testids(doc, "edition-row", "data-edition"); strings.Join(got, ",") != "2,1" {
		t.Errorf("editions listed %v, want 2,1", got)
	}

	doc = e.Page("/r/gpu-cloud/editions/2", "Accept-Language", "en")
	rows := doc.Find(`[data-testid="change-row"]`)
	if rows.Length() != 1 {
		t.Fatalf("%d changes, want 1", rows.Length())
	}
	if href := rows.Find(`[data-testid="change-entry"]`).AttrOr("href", ""); href != "/r/gpu-cloud/e/qingjiao#score-onboarding" {
		t.Errorf("change links to %q", href)
	}
	if got := rows.Find("del").Text() + "→" + rows.Find(`[data-testid="change-to"]`).Text(); got != "—→6" {
		t.Errorf("before → after: %q", got)
	}
	evHref := rows.Find(`[data-testid="change-evidence"]`).AttrOr("href", "")
	if !strings.HasPrefix(evHref, "/r/gpu-cloud/e/qingjiao#ev-demo-qingjiao-2-e") {
		t.Errorf("evidence link %q", evHref)
	}
	if href := rows.Find(`[data-testid="change-audit"]`).AttrOr("href", ""); href != "/r/gpu-cloud/e/qingjiao#record-demo-qingjiao-2" {
		t.Errorf("audit link %q", href)
	}
	moves := map[string]string{}
	doc.Find(`[data-testid="move-row"]`).Each(func(_ int, s *goquery.Selection) {
		moves[s.Find("a").Text()] = s.AttrOr("data-after", "") + s.Find(`[data-testid="move"] [aria-hidden]`).Text()
	})
	if moves["Qingjiao Cloud"] != "8▲1" || moves["Matpool"] != "9▼1" || len(moves) != 9 {
		t.Errorf("moves %v", moves)
	}

	// The anchor the changelog points to exists on the entry page.
	anchor := evHref[strings.Index(evHref, "#")+1:]
	entry := e.Page("/r/gpu-cloud/e/qingjiao", "Accept-Language", "en")
	if entry.Find("#"+anchor).Length() != 1 || entry.Find("#score-onboarding").Length() != 1 {
		t.Errorf("entry page lacks #%s or #score-onboarding", anchor)
	}

	// Edition 1 introduced every entry; in Chinese.
	doc = e.Page("/r/gpu-cloud/editions/1", "Accept-Language", "zh-CN")
	if n := doc.Find(`[data-testid="new-entries"] li`).Length(); n != 9 {
		t.Errorf("edition 1 new entries: %d", n)
	}
	if got := doc.Find("h1").Text(); got != "第 1 期" {
		t.Errorf("zh title %q", got)
	}
	if n := doc.Find(`[data-testid="audit-link"]`).Length(); n != 10 { // nine platforms and the ranking's definition
		t.Errorf("edition 1 proposals linked to the audit trail: %d", n)
	}
	for _, target := range []string{"/r/gpu-cloud/editions/3", "/r/gpu-cloud/editions/0", "/r/gpu-cloud/editions/x"} {
		if res, _ := e.Get(target); res.StatusCode != 404 {
			t.Errorf("%s: %d", target, res.StatusCode)
		}
	}
}

func TestPublicMethodology(t *testing.T) {
	t.Parallel()
	e := newSiteEnv(t)
	doc := e.Page("/r/gpu-cloud/methodology", "Accept-Language", "en")
	if n := doc.Find(`[data-testid="criteria"] tbody tr`).Length(); n != 8 {
		t.Errorf("%d criteria", n)
	}
	// Training's weights, column by column: 15 20 30 5 5 0 5 20.
	var training []string
	doc.Find(`[data-testid="criteria"] tbody tr`).Each(func(_ int, s *goquery.Selection) {
		training = append(training, s.Find("td").Eq(1).Text())
	})
	if strings.Join(training, " ") != "15 20 30 5 5 0 5 20" {
		t.Errorf("training weights %v", training)
	}
	if n := doc.Find(`[data-testid="method-filter"]`).Length(); n != 6 {
		t.Errorf("%d needs questions, want 6", n)
	}
	if !strings.Contains(doc.Find(`[data-testid="quorum"]`).Text(), "At least 2 approvals") {
		t.Errorf("quorum: %q", doc.Find(`[data-testid="quorum"]`).Text())
	}
	if doc.Find(`[data-testid="illustrative"]`).Length() != 1 {
		t.Error("no note that the demo scores are illustrative")
	}
	if !strings.Contains(doc.Text(), "Spot (preemptible) capacity") {
		t.Error("filter requirements are not spelled out with labels")
	}
}
