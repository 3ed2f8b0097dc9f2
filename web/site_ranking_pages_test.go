package web

import (
	"net/http"
	"strings"
	"testing"
)

// TestPublicRankingPages stays here: it sets Config.siteRows, the server's
// unexported rows-per-page knob for tests.
// TestPublicRankingPages: past the page size the live page lists one page
// of rows in the view's rank order, with stable ?page=N links that keep the
// reader's choices; the last page holds the rest, a page past it is 404,
// and the edition's CSV and JSON hold every entry.
func TestPublicRankingPages(t *testing.T) {
	t.Parallel()
	e := newSiteEnvWith(t, func(c *Config) { c.siteRows = 5 }) // the demo has 9 entries
	doc := e.page("/r/gpu-cloud?scenario=training", "Accept-Language", "en")
	if rows := testids(doc, "ranking-row", "data-entry"); len(rows) != 5 || rows[0] != "zhixingyun" {
		t.Fatalf("first page rows %v, want the first 5 of the training order", rows)
	}
	if got := strings.TrimSpace(byTestID(doc, "ranking-count").Text()); got != "1–5 of 9" {
		t.Errorf("count %q", got)
	}
	next := byTestID(doc, "page-next").AttrOr("href", "")
	if next != "/r/gpu-cloud?page=2&scenario=training" {
		t.Fatalf("next page link %q", next)
	}
	last := e.page(next, "Accept-Language", "en")
	rows := testids(last, "ranking-row", "data-entry")
	if len(rows) != 4 || rows[3] != "qingjiao" {
		t.Errorf("last page rows %v", rows)
	}
	if ranks := testids(last, "ranking-row", "data-rank"); ranks[0] != "6" {
		t.Errorf("the last page starts at rank %v, want 6", ranks)
	}
	if byTestID(last, "page-next").Length() != 0 || byTestID(last, "page-prev").AttrOr("href", "") != "/r/gpu-cloud?scenario=training" {
		t.Error("the last page links past itself, or not back to the first page's one address")
	}
	if href := byTestID(last, "whole-csv").AttrOr("href", ""); href != "/r/gpu-cloud/editions/1/ranking.csv" {
		t.Errorf("whole list link %q", href)
	}
	if res, _ := e.get("/r/gpu-cloud?scenario=training&page=3"); res.StatusCode != http.StatusNotFound {
		t.Errorf("a page past the last: %d, want 404", res.StatusCode)
	}
	if rows := testids(e.page("/r/gpu-cloud?page=x"), "ranking-row", "data-entry"); len(rows) != 5 {
		t.Errorf("?page=x shows %d rows, want the first page", len(rows))
	}
	zh := e.page("/r/gpu-cloud", "Accept-Language", "zh-CN")
	if got := strings.TrimSpace(byTestID(zh, "ranking-count").Text()); got != "第 1–5 条，共 9 条" {
		t.Errorf("zh count %q", got)
	}
}
