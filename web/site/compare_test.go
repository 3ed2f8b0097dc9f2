package site

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/web/httpx"
)

func TestCompare(t *testing.T) {
	e := newEnv(t, 0)
	ctx := t.Context()
	def, _, err := e.site.read.Definition(ctx, demo.RankingSlug)
	if err != nil {
		t.Fatal(err)
	}
	page := func(target string, lang string) *goquery.Document {
		t.Helper()
		res, body := e.get(target, "Accept-Language", lang)
		if res.StatusCode != 200 {
			t.Fatalf("GET %s: %d", target, res.StatusCode)
		}
		doc, err := goquery.NewDocumentFromReader(strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		return doc
	}

	rk := page("/r/"+demo.RankingSlug, "en")
	href, ok := rk.Find(`[data-testid="compare-link"]`).Attr("href")
	if !ok {
		t.Fatal("the ranking page does not link a comparison")
	}
	var slugs []string
	rk.Find(`[data-testid="ranking-row"]`).Slice(0, 2).Each(func(_ int, s *goquery.Selection) { slugs = append(slugs, s.AttrOr("data-entry", "")) })
	for _, lang := range []string{"en", "zh"} {
		doc := page(href, lang)
		var cols []string
		doc.Find(`[data-testid="compare-entry"]`).Each(func(_ int, s *goquery.Selection) { cols = append(cols, s.AttrOr("data-entry", "")) })
		if strings.Join(cols, ",") != strings.Join(slugs, ",") {
			t.Fatalf("%s: columns %v, want the top two %v", lang, cols, slugs)
		}
		if want := map[string]string{"en": "Compare", "zh": "对比"}[lang]; doc.Find("h1").Text() != want {
			t.Errorf("%s: title %q", lang, doc.Find("h1").Text())
		}
		rows := doc.Find(`[data-testid="compare-criterion"]`)
		if rows.Length() != len(def.Criteria) {
			t.Fatalf("%s: %d criteria, want %d", lang, rows.Length(), len(def.Criteria))
		}
		ents := make([]map[string]int, 2)
		evs := make([]map[string]int, 2)
		totals := make([]int, 2)
		for i, s := range slugs {
			ent, err := e.site.read.Entry(ctx, demo.RankingSlug, s)
			if err != nil {
				t.Fatal(err)
			}
			ents[i], evs[i], totals[i] = map[string]int{}, map[string]int{}, ent.Total
			for _, sv := range ent.Scores {
				ents[i][sv.Criterion], evs[i][sv.Criterion] = sv.Score, len(sv.Evidence)
			}
		}
		rows.Each(func(r int, row *goquery.Selection) {
			c := def.Criteria[r]
			row.Find("td").Each(func(i int, td *goquery.Selection) {
				want := "—"
				if s, ok := ents[i][c.Slug]; ok {
					want = strconv.Itoa(s)
				}
				if got := td.Find(`[data-testid="compare-score"]`).Text(); got != want {
					t.Errorf("%s: %s of %s = %q, want %q", lang, c.Slug, slugs[i], got, want)
				}
				if got := td.Find(`[data-testid="compare-evidence"] li`).Length(); got != evs[i][c.Slug] {
					t.Errorf("%s: %s of %s shows %d evidence items, want %d", lang, c.Slug, slugs[i], got, evs[i][c.Slug])
				}
			})
		})
		sc := doc.Find(`[data-testid="compare-scenario"]`)
		if sc.Length() != 1+len(def.Scenarios) {
			t.Errorf("%s: %d weight sets, want overall and %d scenarios", lang, sc.Length(), len(def.Scenarios))
		}
		overall := sc.First()
		if got := overall.Find(`[data-testid="compare-total"]`).First().Text(); got != totalText(totals[0]) {
			t.Errorf("%s: overall total %q, want %q", lang, got, totalText(totals[0]))
		}
		if got, want := overall.Find(`[data-testid="compare-total-diff"]`).Text(), signedTotal(totals[1]-totals[0]); got != want {
			t.Errorf("%s: difference %q, want %q", lang, got, want)
		}
	}

	ent := page("/r/"+demo.RankingSlug+"/e/"+slugs[1], "zh")
	href, ok = ent.Find(`[data-testid="compare-link"]`).Attr("href")
	if !ok {
		t.Fatal("the entry page does not link a comparison")
	}
	picker := page(href, "zh")
	if got := picker.Find(`[data-testid="compare-select-a"] option[selected]`).AttrOr("value", ""); got != slugs[1] {
		t.Errorf("picker preselects %q, want %q", got, slugs[1])
	}
	if picker.Find(`[data-testid="compare-table"]`).Length() != 0 {
		t.Error("one entry shows a comparison")
	}

	base := "/r/" + demo.RankingSlug + "/compare?"
	a, b := "a="+slugs[0], "&b="+slugs[1]
	for target, want := range map[string]int{
		base + a + "&b=nope":                              http.StatusNotFound,
		"/r/nope/compare?" + a + b:                        http.StatusNotFound,
		base + a + "&b=" + slugs[0]:                       http.StatusBadRequest,
		base + a + b + "&c=x&d=y&e=z":                     http.StatusBadRequest,
		base + a + b + "&e=" + slugs[0]:                   http.StatusBadRequest,
		base + a + "&a=" + slugs[1]:                       http.StatusBadRequest,
		base + a + b + "&utm_source=x&lang=zh&scenario=x": http.StatusOK,
	} {
		if res, _ := e.get(target); res.StatusCode != want {
			t.Errorf("GET %s: %d, want %d", target, res.StatusCode, want)
		}
	}
}

// FuzzCompareQuery: any query either names two to four distinct entries
// from a–d, fewer (the picker), or is refused as malformed — never more.
func FuzzCompareQuery(f *testing.F) {
	for _, s := range []string{"a=x&b=y", "a=x&b=x", "a=1&b=2&c=3&d=4&e=5", "a=x&a=y", "z=1", "lang=zh&a=x", "%zz"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		q, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		got, err := compareQueryOf(q)
		if err != nil {
			if httpx.Status(err) != http.StatusBadRequest {
				t.Fatalf("%q: status %d", raw, httpx.Status(err))
			}
			return
		}
		if len(got) > compareMax {
			t.Fatalf("%q: %d entries", raw, len(got))
		}
		seen := map[string]bool{}
		for _, e := range got {
			if e == "" || seen[e] {
				t.Fatalf("%q: %q", raw, got)
			}
			seen[e] = true
		}
	})
}
