package site

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/i18n"
)

// ldOf parses the page's JSON-LD blocks.
func ldOf(t *testing.T, body string) (*goquery.Document, []map[string]any) {
	t.Helper()
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	doc.Find(`script[type="application/ld+json"]`).Each(func(_ int, s *goquery.Selection) {
		if s.AttrOr("nonce", "") != "test-nonce" {
			t.Errorf("JSON-LD without the page's nonce")
		}
		var v map[string]any
		if err := json.Unmarshal([]byte(s.Text()), &v); err != nil {
			t.Fatalf("JSON-LD: %v in %s", err, s.Text())
		}
		out = append(out, v)
	})
	return doc, out
}

func TestRankingItemList(t *testing.T) {
	e := newEnv(t, 0)
	n, _ := e.latestEdition()
	for _, lang := range []string{"en", "zh"} {
		_, body := e.get("/r/"+demo.RankingSlug, "Accept-Language", lang)
		doc, ld := ldOf(t, body)
		if len(ld) != 1 || ld[0]["@type"] != "ItemList" || ld[0]["@context"] != "https://schema.org" {
			t.Fatalf("%s: JSON-LD %v", lang, ld)
		}
		if ld[0]["description"] != doc.Find(`[data-testid="edition-number"]`).Text() || ld[0]["name"] != doc.Find(`[data-testid="ranking-title"]`).Text() {
			t.Errorf("%s: description %v name %v", lang, ld[0]["description"], ld[0]["name"])
		}
		if ld[0]["description"] != i18n.T(lang, "public.edition_title", n) {
			t.Errorf("%s: the list does not name edition %d", lang, n)
		}
		items, _ := ld[0]["itemListElement"].([]any)
		rows := doc.Find(`[data-testid="ranking-row"]`)
		if len(items) != rows.Length() || len(items) == 0 {
			t.Fatalf("%s: %d items, the page shows %d rows", lang, len(items), rows.Length())
		}
		rows.Each(func(i int, row *goquery.Selection) {
			it := items[i].(map[string]any)
			link := row.Find(`[data-testid="entry-link"]`)
			if it["@type"] != "ListItem" || it["position"] != float64(i+1) || strconv.Itoa(int(it["position"].(float64))) != row.AttrOr("data-rank", "") ||
				it["name"] != link.Text() || it["url"] != link.AttrOr("href", "") {
				t.Errorf("%s: item %d = %v, row %s %q %s", lang, i, it, row.AttrOr("data-rank", ""), link.Text(), link.AttrOr("href", ""))
			}
		})
	}
}

func TestEditionsDatasetAndCite(t *testing.T) {
	e := newEnv(t, 0)
	n, hash := e.latestEdition()
	ed, err := e.site.read.Edition(t.Context(), demo.RankingSlug, n)
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range []string{"en", "zh"} {
		_, body := e.get("/r/"+demo.RankingSlug+"/editions", "Accept-Language", lang)
		doc, ld := ldOf(t, body)
		if len(ld) != 1 || ld[0]["@type"] != "Dataset" {
			t.Fatalf("%s: JSON-LD %v", lang, ld)
		}
		ds := ld[0]
		if ds["version"] != strconv.Itoa(n) || ds["dateModified"] != ed.PublishedAt || ds["identifier"] != "sha256:"+hash ||
			ds["name"] == "" || ds["description"] == "" {
			t.Errorf("%s: dataset %v", lang, ds)
		}
		// The demo states CC-BY-4.0: the SPDX page in the data, the id on the page.
		if ds["license"] != "https://spdx.org/licenses/CC-BY-4.0.html" {
			t.Errorf("%s: license %v, want the demo's CC-BY-4.0", lang, ds["license"])
		}
		if got := doc.Find(`[data-testid="license"]`).Text(); !strings.Contains(got, "CC-BY-4.0") {
			t.Errorf("%s: license line %q", lang, got)
		}
		dist, _ := ds["distribution"].([]any)
		if len(dist) != 2 {
			t.Fatalf("%s: distribution %v", lang, dist)
		}
		newest := doc.Find(`[data-testid="edition-row"]`).First()
		for _, d := range dist {
			u := d.(map[string]any)["contentUrl"].(string)
			if newest.Find(`a[href="`+u+`"]`).Length() != 1 {
				t.Errorf("%s: %s is not linked from the newest edition", lang, u)
			}
			if res, _ := e.get(u); res.StatusCode != http.StatusOK {
				t.Errorf("%s: GET %s: %d", lang, u, res.StatusCode)
			}
		}
		cite := doc.Find(`[data-testid="cite-text"]`).Text()
		if !strings.Contains(cite, hash) || !strings.Contains(cite, "Crossrank") || !strings.Contains(cite, ed.PublishedAt[:4]) {
			t.Errorf("%s: citation %q", lang, cite)
		}
		if lang == "zh" && !strings.Contains(cite, "数据集") {
			t.Errorf("zh: citation %q is not in Chinese", cite)
		}
	}

	base := "/r/" + demo.RankingSlug + "/editions/" + strconv.Itoa(n)
	res, bib := e.get(base + "/cite.bib")
	r2, again := e.get(base + "/cite.bib")
	if res.StatusCode != 200 || bib != again || res.Header.Get("ETag") == "" || res.Header.Get("ETag") != r2.Header.Get("ETag") {
		t.Fatalf("cite.bib: %d, ETag %q, same bytes %v", res.StatusCode, res.Header.Get("ETag"), bib == again)
	}
	for _, want := range []string{"\n@dataset{crossrank-" + demo.RankingSlug + "-" + strconv.Itoa(n) + ",", "author    = {{Crossrank}}",
		"version   = {" + strconv.Itoa(n) + "}", "url       = {http://example.com" + base + "}", "date      = {" + ed.PublishedAt[:10] + "}", hash,
		"% change the type to misc and the date to: year = {" + ed.PublishedAt[:4] + "}\n"} {
		if !strings.Contains(bib, want) {
			t.Errorf("cite.bib lacks %q:\n%s", want, bib)
		}
	}
	// BibTeX starts an entry at any at sign outside one: the fallback
	// note before the entry must hold none, and biblatex needs no year
	// beside the date (biber warns of one overwriting the other).
	if head, _, _ := strings.Cut(bib, "\n@dataset{"); strings.Contains(head, "@") || strings.Contains(bib, "year      =") {
		t.Errorf("cite.bib: an at sign before the entry, or a year beside the date:\n%s", bib)
	}
	if res, _ := e.get(base+"/cite.bib", "If-None-Match", res.Header.Get("ETag")); res.StatusCode != http.StatusNotModified {
		t.Errorf("cite.bib If-None-Match: %d", res.StatusCode)
	}
	_, csl := e.get(base + "/cite.json")
	var items []map[string]any
	if err := json.Unmarshal([]byte(csl), &items); err != nil || len(items) != 1 {
		t.Fatalf("cite.json: %v, %s", err, csl)
	}
	if it := items[0]; it["type"] != "dataset" || it["URL"] != "http://example.com"+base || it["version"] != strconv.Itoa(n) ||
		!strings.Contains(it["note"].(string), hash) {
		t.Errorf("cite.json: %v", it)
	}
	// The site is an organisation: one literal name in CSL, as the
	// braces around it say in BibTeX, never a person's family name.
	if got, _ := json.Marshal(items[0]["author"]); string(got) != `[{"literal":"Crossrank"}]` {
		t.Errorf("cite.json author %s, want the literal Crossrank", got)
	}
}

func TestBibEscaping(t *testing.T) {
	c := citation{Key: "k", Title: langMap{En: `A & B {50%} $x_1#^~\`}, Publisher: "P", Year: "2026", Version: 1}
	if got, want := string(c.BibTeX()), `title     = {A \& B \{50\%\} \$x\_1\#\^{}\~{}\textbackslash{}},`; !strings.Contains(got, want) {
		t.Errorf("got\n%s\nwant a line %s", got, want)
	}
}

// TestJSONLDAbsoluteWithPublicOrigin: with the site's public URL known,
// every url and contentUrl of the structured data is absolute, so a
// JSON-LD processor without the page's address (toRDF with no base)
// keeps every triple.
func TestJSONLDAbsoluteWithPublicOrigin(t *testing.T) {
	e := newEnv(t, 0)
	s := New(Config{Read: e.site.read, Origin: "https://rank.example/"})
	mux := http.NewServeMux()
	s.Routes(mux, func(h http.Handler) http.Handler { return h })
	o := &env{t: t, site: s, handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rq := &httpx.Request{Lang: i18n.En, Nonce: "test-nonce", Clock: time.Now, Now: time.Now()}
		mux.ServeHTTP(w, r.WithContext(httpx.NewContext(r.Context(), rq)))
	})}
	for _, page := range []string{"/r/" + demo.RankingSlug, "/r/" + demo.RankingSlug + "/editions"} {
		_, body := o.get(page)
		_, ld := ldOf(t, body)
		if len(ld) != 1 {
			t.Fatalf("%s: JSON-LD %v", page, ld)
		}
		var addresses []string
		var walk func(v any)
		walk = func(v any) {
			switch v := v.(type) {
			case map[string]any:
				for k, x := range v {
					if s, ok := x.(string); ok && (k == "url" || k == "contentUrl") {
						addresses = append(addresses, s)
					}
					walk(x)
				}
			case []any:
				for _, x := range v {
					walk(x)
				}
			}
		}
		walk(ld[0])
		if len(addresses) < 3 {
			t.Fatalf("%s: only %d addresses in %v", page, len(addresses), ld[0])
		}
		for _, a := range addresses {
			if !strings.HasPrefix(a, "https://rank.example/r/"+demo.RankingSlug+"/") {
				t.Errorf("%s: address %q is not absolute under the public URL", page, a)
			}
		}
	}
}
