package desk_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/crossrank/crossrank/web/paths"
	"github.com/crossrank/crossrank/web/webtest"
)

// TestDeskSearchSnippets: the desk's search page and GET /api/v1/search
// ask the same full-text query: the same hits of a kind, in the same
// order (best first), each with the text around what matched, the match
// marked — on the page in <mark>, in the API as parts.
func TestDeskSearchSnippets(t *testing.T) {
	t.Parallel()
	e := webtest.NewAdmin(t)
	c := e.Client("ed")
	for _, c2 := range []struct{ q, kind, mark string }{
		{"星云", "entry", "星云"},
		{"裸金属", "evidence", "裸金属"},
		{"bare metal", "evidence", "bare"}, // each word of the phrase is marked
	} {
		doc := e.Get(c, paths.Search+"?kind="+c2.kind+"&q="+url.QueryEscape(c2.q), http.StatusOK)
		hits := doc.Find(`[data-testid="search-` + c2.kind + `"] [data-testid="search-hit"]`)
		if hits.Length() == 0 {
			t.Fatalf("%s %q: no hits on the page", c2.kind, c2.q)
		}
		first := hits.First().Find(`[data-testid="search-snippet"] mark`)
		if got := strings.ToLower(first.First().Text()); got != c2.mark {
			t.Errorf("%s %q: the first hit's snippet marks %q, want %q", c2.kind, c2.q, got, c2.mark)
		}

		res, body := c.Do(http.MethodGet, "/api/v1/search?kind="+c2.kind+"&q="+url.QueryEscape(c2.q), nil, nil)
		var out struct {
			Total int `json:"total"`
			Hits  []struct {
				Proposal string `json:"proposal"`
				Entry    string `json:"entry"`
				Snippet  []struct {
					Text  string `json:"text"`
					Match bool   `json:"match"`
				} `json:"snippet"`
			} `json:"hits"`
		}
		if res.StatusCode != http.StatusOK || json.Unmarshal([]byte(body), &out) != nil {
			t.Fatalf("API %q: %d %.300s", c2.q, res.StatusCode, body)
		}
		if out.Total != hits.Length() {
			t.Errorf("%s %q: the API finds %d, the page shows %d", c2.kind, c2.q, out.Total, hits.Length())
		}
		hrefs := hits.Find("a").Map(func(_ int, a *goquery.Selection) string { return a.AttrOr("href", "") })
		for i, h := range out.Hits {
			key := "/" + h.Entry
			if h.Proposal != "" {
				key = h.Proposal
			}
			if i >= len(hrefs) || !strings.Contains(hrefs[i], key) {
				t.Errorf("%s %q: hit %d is %s in the API, %v on the page", c2.kind, c2.q, i, key, hrefs)
			}
			var marked string
			for _, p := range h.Snippet {
				if p.Match {
					marked = p.Text
					break
				}
			}
			if strings.ToLower(marked) != c2.mark {
				t.Errorf("%s %q: API hit %d marks %q, want %q (%+v)", c2.kind, c2.q, i, marked, c2.mark, h.Snippet)
			}
		}
	}
}
