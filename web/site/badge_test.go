package site

import (
	"encoding/json"
	"encoding/xml"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/i18n"
)

// wellFormed reports the first XML error of body.
func wellFormed(body string) error {
	d := xml.NewDecoder(strings.NewReader(body))
	for {
		if _, err := d.Token(); err == io.EOF {
			return nil
		} else if err != nil {
			return err
		}
	}
}

func TestBadges(t *testing.T) {
	e := newEnv(t, 0)
	n, _ := e.latestEdition()
	var snap domain.Snapshot
	_, js := e.get("/r/" + demo.RankingSlug + "/editions/" + strconv.Itoa(n) + "/ranking.json")
	if err := json.Unmarshal([]byte(js), &snap); err != nil || len(snap.Entries) < 2 || len(snap.Scenarios) == 0 {
		t.Fatalf("snapshot: %v", err)
	}
	second := snap.Entries[1]
	base := "/r/" + demo.RankingSlug + "/e/" + second.Slug

	t.Run("svg", func(t *testing.T) {
		res, body := e.get(base + "/badge.svg")
		if res.StatusCode != 200 || res.Header.Get("Content-Type") != "image/svg+xml; charset=utf-8" {
			t.Fatalf("status %d, type %q", res.StatusCode, res.Header.Get("Content-Type"))
		}
		if err := wellFormed(body); err != nil {
			t.Fatalf("not XML: %v\n%s", err, body)
		}
		for _, want := range []string{"#" + strconv.Itoa(second.Rank) + " · Ed. " + strconv.Itoa(n), `href="http://example.com` + base + `"`} {
			if !strings.Contains(body, want) {
				t.Errorf("badge lacks %q:\n%s", want, body)
			}
		}
		r2, again := e.get(base + "/badge.svg")
		if again != body || res.Header.Get("ETag") == "" || r2.Header.Get("ETag") != res.Header.Get("ETag") {
			t.Error("two requests differ")
		}
		if res, _ := e.get(base+"/badge.svg", "If-None-Match", r2.Header.Get("ETag")); res.StatusCode != http.StatusNotModified {
			t.Errorf("If-None-Match: %d", res.StatusCode)
		}
		if _, zh := e.get(base + "/badge.svg?lang=zh"); !strings.Contains(zh, i18n.T(i18n.Zh, "public.edition_short", n)) {
			t.Errorf("?lang=zh:\n%s", zh)
		}
	})

	t.Run("shields endpoint under a scenario", func(t *testing.T) {
		sc := snap.Scenarios[0]
		entry := sc.Order[len(sc.Order)-1]
		_, body := e.get("/r/" + demo.RankingSlug + "/e/" + entry + "/badge.json?scenario=" + sc.Slug)
		var got map[string]any
		if err := json.Unmarshal([]byte(body), &got); err != nil {
			t.Fatal(err)
		}
		if got["schemaVersion"] != float64(1) || got["message"] != "#"+strconv.Itoa(len(sc.Order))+" · Ed. "+strconv.Itoa(n) ||
			got["label"] == "" || got["color"] == "" {
			t.Errorf("endpoint %v", got)
		}
	})

	t.Run("not in the edition is 404", func(t *testing.T) {
		for _, p := range []string{"/r/" + demo.RankingSlug + "/e/nope/badge.svg", "/r/nope/e/x/badge.json",
			base + "/badge.svg?scenario=nope"} {
			if res, _ := e.get(p); res.StatusCode != http.StatusNotFound {
				t.Errorf("GET %s: %d, want 404", p, res.StatusCode)
			}
		}
	})

	t.Run("entry page offers the embed", func(t *testing.T) {
		_, body := e.get(base, "Accept-Language", "en")
		doc, err := goquery.NewDocumentFromReader(strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		md := doc.Find(`[data-testid="badge-markdown"]`).Text()
		if want := "](" + base + "/badge.svg)](" + base + ")"; !strings.HasSuffix(md, want) {
			t.Errorf("markdown %q, want it to end %q", md, want)
		}
		if src, _ := doc.Find(`[data-testid="badge-preview"]`).Attr("src"); src != base+"/badge.svg" {
			t.Errorf("preview %q", src)
		}
	})
}

func TestBadgeEscapes(t *testing.T) {
	b := badge{Label: `<script>&"'`, Message: "#1 · 第 2 期", Color: "green", Href: `/r/x?a=1&b=<2>`}
	svg := string(b.SVG())
	if err := wellFormed(svg); err != nil || strings.Contains(svg, "<script>") {
		t.Errorf("%v\n%s", err, svg)
	}
	if string(b.SVG()) != svg {
		t.Error("not deterministic")
	}
}

func TestPublicOriginInPermalinks(t *testing.T) {
	e := newEnv(t, 0)
	s := New(Config{Read: e.site.read, Origin: "https://rank.example/"})
	mux := http.NewServeMux()
	s.Routes(mux, func(h http.Handler) http.Handler { return h })
	o := &env{t: t, site: s, handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rq := &httpx.Request{Lang: i18n.En, Nonce: "test-nonce", Clock: time.Now, Now: time.Now()}
		mux.ServeHTTP(w, r.WithContext(httpx.NewContext(r.Context(), rq)))
	})}
	n, _ := o.latestEdition()
	_, js := o.get("/r/" + demo.RankingSlug + "/editions/" + strconv.Itoa(n) + "/ranking.json")
	var snap domain.Snapshot
	if err := json.Unmarshal([]byte(js), &snap); err != nil {
		t.Fatal(err)
	}
	entry := "/r/" + demo.RankingSlug + "/e/" + snap.Entries[0].Slug

	_, body := o.get(entry)
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := doc.Find(`[data-testid="badge-markdown"]`).Text(), "](https://rank.example"+entry+"/badge.svg)](https://rank.example"+entry+")"; !strings.HasSuffix(got, want) {
		t.Errorf("markdown %q, want it to end %q", got, want)
	}
	_, body = o.get("/r/" + demo.RankingSlug + "/editions")
	doc, err = goquery.NewDocumentFromReader(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := doc.Find(`[data-testid="cite-permalink"]`).AttrOr("href", ""), "https://rank.example/r/"+demo.RankingSlug+"/editions/"+strconv.Itoa(n); got != want {
		t.Errorf("permalink %q, want %q", got, want)
	}
	if _, bib := o.get("/r/" + demo.RankingSlug + "/editions/" + strconv.Itoa(n) + "/cite.bib"); !strings.Contains(bib, "{https://rank.example/r/") {
		t.Errorf("cite.bib ignores the public origin:\n%s", bib)
	}
	if _, svg := o.get(entry + "/badge.svg"); !strings.Contains(svg, `href="https://rank.example`+entry+`"`) {
		t.Errorf("badge ignores the public origin:\n%s", svg)
	}
	// The feeds' links too, whatever Host the request names
	// (httptest's is example.com).
	for _, feed := range []string{"/feed.atom", "/r/" + demo.RankingSlug + "/feed.atom"} {
		_, atom := o.get(feed)
		if !strings.Contains(atom, `href="https://rank.example/`) || strings.Contains(atom, "example.com") {
			t.Errorf("%s ignores the public origin:\n%.600s", feed, atom)
		}
	}
}
