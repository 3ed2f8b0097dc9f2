package site

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain/demo"
)

// TestRankingAPIPages: GET /api/v1/rankings/{slug} answers ?limit= rows
// at a time in rank order, with a `next` cursor passed back as ?after=
// until the last page, which has none; every row comes exactly once; a
// malformed limit or cursor is refused naming the field. It sent every
// entry in one answer (7 MB at 10,000 entries; issue 42 item 7).
func TestRankingAPIPages(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 0)
	base := "/api/v1/rankings/" + demo.RankingSlug
	type page struct {
		Entries, Excluded []struct {
			Slug string
			Rank int
		}
		Next string
	}
	read := func(target string) page {
		t.Helper()
		res, body := e.get(target)
		var p page
		if res.StatusCode != http.StatusOK || json.Unmarshal([]byte(body), &p) != nil {
			t.Fatalf("%s: %d %s", target, res.StatusCode, body)
		}
		return p
	}
	whole := read(base)
	if whole.Next != "" || len(whole.Entries) < 5 {
		t.Fatalf("the demo in one default page: %d entries, next %q", len(whole.Entries), whole.Next)
	}
	var got []string
	pages := 0
	for target := base + "?limit=2"; target != ""; pages++ {
		p := read(target)
		if len(p.Entries)+len(p.Excluded) > 2 {
			t.Fatalf("%s: %d rows, want at most 2", target, len(p.Entries)+len(p.Excluded))
		}
		for _, r := range p.Entries {
			got = append(got, r.Slug)
		}
		target = ""
		if p.Next != "" {
			target = base + "?limit=2&after=" + url.QueryEscape(p.Next)
		}
	}
	var want []string
	for _, r := range whole.Entries {
		want = append(want, r.Slug)
	}
	if strings.Join(got, ",") != strings.Join(want, ",") || pages != (len(whole.Entries)+len(whole.Excluded)+1)/2 {
		t.Errorf("paged: %v in %d pages, want %v", got, pages, want)
	}
	for _, c := range []struct{ query, field string }{{"limit=0", "limit"}, {"limit=x", "limit"}, {"after=nope", "after"}, {"after=cjA", "after"}} {
		res, body := e.get(base + "?" + c.query)
		if res.StatusCode != http.StatusBadRequest || !strings.Contains(body, c.field) {
			t.Errorf("?%s: %d %s, want 400 naming %s", c.query, res.StatusCode, body, c.field)
		}
	}
}

// TestEditionDownloadsGzipped: an edition's ranking.csv and ranking.json
// go gzip-compressed to a client that accepts it, under an ETag of their
// own (the compressed bytes are another representation), the same bytes
// once decompressed; both are built and compressed once while cached, and
// each tag answers 304. They were sent uncompressed, rebuilt per request
// (7.9 MB and 5 MB at 10,000 entries; issue 42 item 7).
func TestEditionDownloadsGzipped(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 64<<20)
	n, _ := e.latestEdition()
	for _, file := range []string{"ranking.csv", "ranking.json"} {
		target := "/r/" + demo.RankingSlug + "/editions/" + itoa(n) + "/" + file
		plainRes, plain := e.get(target)
		if plainRes.StatusCode != http.StatusOK || plainRes.Header.Get("Content-Encoding") != "" || plain == "" {
			t.Fatalf("%s plain: %d %q", file, plainRes.StatusCode, plainRes.Header.Get("Content-Encoding"))
		}
		before := e.site.cache.stats()
		for i := range 3 {
			res, body := e.get(target, "Accept-Encoding", "gzip")
			if res.StatusCode != http.StatusOK || res.Header.Get("Content-Encoding") != "gzip" {
				t.Fatalf("%s gzip: %d %q", file, res.StatusCode, res.Header.Get("Content-Encoding"))
			}
			zr, err := gzip.NewReader(strings.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			un, err := io.ReadAll(zr)
			if err != nil || !bytes.Equal(un, []byte(plain)) {
				t.Fatalf("%s: the gzip copy decompresses to other bytes (%v)", file, err)
			}
			if tag := res.Header.Get("ETag"); tag == plainRes.Header.Get("ETag") || !strings.Contains(res.Header.Get("Vary"), "Accept-Encoding") {
				t.Errorf("%s gzip #%d: ETag %q as the plain one's, Vary %q", file, i, tag, res.Header.Get("Vary"))
			}
			if again, _ := e.get(target, "Accept-Encoding", "gzip", "If-None-Match", res.Header.Get("ETag")); again.StatusCode != http.StatusNotModified {
				t.Errorf("%s: its gzip ETag answers %d, want 304", file, again.StatusCode)
			}
		}
		if res, _ := e.get(target, "If-None-Match", plainRes.Header.Get("ETag")); res.StatusCode != http.StatusNotModified {
			t.Errorf("%s: its ETag answers %d, want 304", file, res.StatusCode)
		}
		if after := e.site.cache.stats(); after.Compressions != before.Compressions+1 || after.Misses != before.Misses {
			t.Errorf("%s: three gzip requests compressed %d times and built %d times, want once and none",
				file, after.Compressions-before.Compressions, after.Misses-before.Misses)
		}
	}
}

// TestWarmFirstPages: Warm builds the start page, each ranking's first
// page and its newest edition's page, in both languages and compressed,
// so the first reader after a restart or a publish is served from the
// cache (a cold first page took 3.9–6.5 s at 10,000 entries; issue 42
// item 6).
func TestWarmFirstPages(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 64<<20)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := e.site.Warm(ctx); err != nil {
		t.Fatal(err)
	}
	warm := e.site.cache.stats()
	if warm.Entries < 6 || warm.Compressions < 6 {
		t.Fatalf("after warming: %+v, want the three first pages in two languages, compressed", warm)
	}
	n, _ := e.latestEdition()
	for _, lang := range []string{"en", "zh-CN"} {
		for _, p := range []string{"/", "/r/" + demo.RankingSlug, "/r/" + demo.RankingSlug + "/editions/" + itoa(n)} {
			if res, _ := e.get(p, "Accept-Language", lang, "Accept-Encoding", "gzip"); res.StatusCode != http.StatusOK {
				t.Errorf("%s %s: %d", lang, p, res.StatusCode)
			}
		}
	}
	if after := e.site.cache.stats(); after.Misses != warm.Misses || after.Compressions != warm.Compressions {
		t.Errorf("the first readers after warming built %d pages and compressed %d, want none",
			after.Misses-warm.Misses, after.Compressions-warm.Compressions)
	}
}

// TestEditionNumberCanonical: an edition has one address. "02", "+2",
// " 2" and "2.0" name no edition (404) on its page, its downloads, its
// bundle, its archive and the API, where strconv.Atoi read the first two
// as 2 (issue 41 item 5).
func TestEditionNumberCanonical(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 0)
	n, _ := e.latestEdition()
	for _, tail := range []string{"", "/ranking.csv", "/ranking.json", "/cite.bib"} {
		good := "/r/" + demo.RankingSlug + "/editions/" + itoa(n) + tail
		if res, _ := e.get(good); res.StatusCode != http.StatusOK {
			t.Errorf("%s: %d, want 200", good, res.StatusCode)
		}
		for _, bad := range []string{"0" + itoa(n), "%2B" + itoa(n), "%20" + itoa(n), itoa(n) + ".0", "00"} {
			target := "/r/" + demo.RankingSlug + "/editions/" + bad + tail
			if res, _ := e.get(target); res.StatusCode != http.StatusNotFound {
				t.Errorf("%s: %d, want 404", target, res.StatusCode)
			}
		}
	}
	for _, bad := range []string{"0" + itoa(n), "%2B" + itoa(n)} {
		target := "/api/v1/rankings/" + demo.RankingSlug + "/editions/" + bad
		if res, _ := e.get(target); res.StatusCode != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", target, res.StatusCode)
		}
	}
}
