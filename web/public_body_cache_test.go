package web

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/crossrank/crossrank/domain/demo"
)

// TestPageCacheLRU: the least recently used body goes first, a hit makes a
// body recent, and a body larger than the bound is served but not kept.
func TestPageCacheLRU(t *testing.T) {
	raw := []byte(strings.Repeat("x", 1000))
	entry := newPubBodyCache(1).newBody("a", raw).size // keys of one letter
	c := newPubBodyCache(3 * entry)
	builds := 0
	get := func(key string) {
		t.Helper()
		if _, err := c.get(key, func() ([]byte, error) { builds++; return raw, nil }); err != nil {
			t.Fatal(err)
		}
	}
	cached := func() string {
		var keys []string
		for el := c.lru.Front(); el != nil; el = el.Next() {
			keys = append(keys, el.Value.(*pubBody).key)
		}
		return strings.Join(keys, "")
	}
	for _, step := range []struct {
		get, want string // want: the keys cached, most recent first
	}{
		{"a", "a"}, {"b", "ba"}, {"c", "cba"},
		{"a", "acb"}, // a hit: a is recent, b is now the oldest
		{"d", "dac"}, // b evicted
		{"c", "cda"}, // a hit
		{"e", "ecd"}, // a evicted
		{"b", "bec"}, // b was evicted: built again
		{"b", "bec"}, // a hit
		{"e", "ebc"}, // a hit
		{"f", "feb"}, // c evicted
	} {
		get(step.get)
		if got := cached(); got != step.want {
			t.Fatalf("after get %q: cached %q, want %q", step.get, got, step.want)
		}
	}
	st := c.stats()
	if want := (pubBodyStats{bytes: 3 * entry, max: 3 * entry, entries: 3, hits: 4, misses: 7, evictions: 4}); st != want || builds != 7 {
		t.Errorf("stats %+v after %d builds, want %+v after 7", st, builds, want)
	}

	big := []byte(strings.Repeat("y", 4*entry))
	b, err := c.get("g", func() ([]byte, error) { return big, nil })
	if err != nil || len(b.parts) != 1 || len(b.parts[0]) != len(big) {
		t.Fatalf("a body larger than the bound: %v", err)
	}
	if got := cached(); got != "feb" {
		t.Errorf("a body larger than the bound changed the cache to %q", got)
	}
}

// TestPageCacheBound: 10,000 distinct valid ranking views (every one its
// own page) keep the cache within its bound at every step, by its own
// byte count, and that count covers what the entries hold: the rendered
// bytes and the gzipped copy made for a reader who accepts it.
//
// The race detector makes a render about five times slower, and this test
// runs one request at a time, so with -race it renders 1,000 views (still
// four times what the bound holds); -short skips it.
func TestPageCacheBound(t *testing.T) {
	if testing.Short() {
		t.Skip("renders thousands of pages")
	}
	n := 10_000
	if raceEnabled {
		n = 1_000
	}
	e := newPubEnv(t)
	const bound = 4 << 20
	e.srv.pageCache = newPubBodyCache(bound)
	queries := pubDistinctViews(t, n)
	for i, q := range queries {
		header := []string{"Accept-Language", "en"}
		if i%4 == 1 {
			header = append(header, "Accept-Encoding", "gzip")
		}
		if res, body := e.get("/r/gpu-cloud?"+q, header...); res.StatusCode != http.StatusOK {
			t.Fatalf("GET ?%s: %d %.200s", q, res.StatusCode, body)
		}
		if st := e.srv.pageCache.stats(); st.bytes > bound {
			t.Fatalf("after %d views the cache holds %d bytes, bound %d", i+1, st.bytes, bound)
		}
	}
	c := e.srv.pageCache
	c.mu.Lock()
	held, count := 0, 0
	for el := c.lru.Front(); el != nil; el = el.Next() {
		b := el.Value.(*pubBody)
		held += (len(b.parts) - 1) * len(pubNonceMark) // the rendered bytes
		for _, p := range b.parts {
			held += len(p)
		}
		for _, p := range b.gz {
			held += cap(p.deflated)
		}
		count++
	}
	size := c.size
	c.mu.Unlock()
	st := c.stats()
	t.Logf("%d views: %d bodies, %d bytes counted, %d in their bytes; %d hits, %d misses, %d evictions",
		len(queries), st.entries, st.bytes, held, st.hits, st.misses, st.evictions)
	if size < held {
		t.Errorf("the cache counts %d bytes, its entries hold %d", size, held)
	}
	if count < 2 || st.evictions == 0 || st.misses != uint64(len(queries)) {
		t.Errorf("%d bodies, %d misses, %d evictions: want several kept, one miss per view, evictions", count, st.misses, st.evictions)
	}
}

// TestPageCacheMetrics: /metrics reports the cache's bytes, bound,
// entries, hits, misses and evictions.
func TestPageCacheMetrics(t *testing.T) {
	e := newPubEnv(t)
	e.srv.pageCache = newPubBodyCache(1 << 20)
	for _, target := range []string{"/r/gpu-cloud", "/r/gpu-cloud", "/r/gpu-cloud?scenario=training", "/api/v1/rankings"} {
		e.get(target, "Accept-Encoding", "gzip")
	}
	res, body := e.get("/metrics")
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET /metrics: %d", res.StatusCode)
	}
	got := checkExposition(t, body)
	st := e.srv.pageCache.stats()
	for name, want := range map[string]float64{
		"crossrank_page_cache_bytes": float64(st.bytes), "crossrank_page_cache_max_bytes": 1 << 20,
		"crossrank_page_cache_entries": 3, "crossrank_page_cache_hits_total": 1,
		"crossrank_page_cache_misses_total": 3, "crossrank_page_cache_evictions_total": 0,
	} {
		if v, ok := got[name]; !ok || v != want {
			t.Errorf("%s = %v (reported: %v), want %v", name, v, ok, want)
		}
	}
	if st.bytes == 0 {
		t.Error("three cached bodies hold no bytes")
	}
}

// pubDistinctViews returns n queries for the demo ranking, each a different
// valid view: a scenario, a category and answers to the needs, counted in a
// mixed radix over every choice ("" is the default of each).
func pubDistinctViews(t *testing.T, n int) []string {
	t.Helper()
	type dim struct {
		key    string
		values []string
	}
	dims := []dim{{key: "scenario", values: []string{""}}, {key: "category", values: []string{""}}}
	set := demo.Scenarios()
	for _, sc := range set.Scenarios {
		dims[0].values = append(dims[0].values, sc.Slug)
	}
	for _, c := range demo.Definition().Categories {
		dims[1].values = append(dims[1].values, c.Slug)
	}
	for _, f := range set.Filters {
		d := dim{key: f.Key, values: []string{""}}
		for _, o := range f.Options {
			d.values = append(d.values, o.Value)
		}
		dims = append(dims, d)
	}
	out := make([]string, 0, n)
	for i := range n {
		q, rest := url.Values{}, i
		for _, d := range dims {
			if v := d.values[rest%len(d.values)]; v != "" {
				q.Set(d.key, v)
			}
			rest /= len(d.values)
		}
		if rest > 0 {
			t.Fatalf("the demo ranking has fewer than %d views", n)
		}
		out = append(out, q.Encode())
	}
	return out
}

// TestPublicUnknownParams: parameters a page does not read, and values it
// does not accept, give the same body and ETag as the URL without them, and
// use the same cached body, whichever of the two URLs built it.
func TestPublicUnknownParams(t *testing.T) {
	e := newPubEnv(t)
	for _, tc := range []struct{ plain, noisy string }{
		{"/r/gpu-cloud", "/r/gpu-cloud?utm_source=x"},
		{"/r/gpu-cloud", "/r/gpu-cloud?foo=1&scenario=&category=nope&all=0"},
		{"/r/gpu-cloud?scenario=training&interruptible=yes", "/r/gpu-cloud?interruptible=yes&utm_campaign=z&scenario=training&fbclid=1"},
		{"/r/gpu-cloud?scale=multi-gpu", "/r/gpu-cloud?scale=multi-gpu&scale=single-gpu&duration=forever"},
		{"/", "/?utm_source=x"},
		{"/r/gpu-cloud/e/ppio", "/r/gpu-cloud/e/ppio?ref=newsletter"},
		{"/r/gpu-cloud/editions", "/r/gpu-cloud/editions?page=2"},
		{"/r/gpu-cloud/methodology", "/r/gpu-cloud/methodology?x=y"},
		{"/feed.atom", "/feed.atom?utm_source=rss"},
		{"/feed.atom?ranking=gpu-cloud", "/feed.atom?utm_source=rss&ranking=gpu-cloud"},
		{"/api/v1/rankings", "/api/v1/rankings?utm_source=x"},
		{"/api/v1/rankings/gpu-cloud?scenario=training", "/api/v1/rankings/gpu-cloud?scenario=training&category=specialist&all=1&lang=zh"},
	} {
		// The noisy URL comes first, so it is the one that builds the body.
		res, got := e.get(tc.noisy, "Accept-Language", "en")
		tag := res.Header.Get("ETag")
		before := e.srv.pageCache.stats()
		res, want := e.get(tc.plain, "Accept-Language", "en")
		if res.StatusCode != http.StatusOK || tag == "" || res.Header.Get("ETag") != tag {
			t.Errorf("%s: %d, ETag %s; %s has %s", tc.plain, res.StatusCode, res.Header.Get("ETag"), tc.noisy, tag)
		}
		if pubNonce.ReplaceAllString(got, "") != pubNonce.ReplaceAllString(want, "") {
			t.Errorf("%s: the body differs from %s's", tc.noisy, tc.plain)
		}
		if strings.Contains(got, "utm_") || strings.Contains(got, "fbclid") || strings.Contains(got, "newsletter") {
			t.Errorf("%s: the body carries the unknown parameters", tc.noisy)
		}
		if after := e.srv.pageCache.stats(); after.entries != before.entries || after.misses != before.misses {
			t.Errorf("%s: %d → %d cached bodies, %d → %d misses: unknown parameters made a new body",
				tc.noisy, before.entries, after.entries, before.misses, after.misses)
		}
		if res, _ := e.get(tc.noisy, "Accept-Language", "en", "If-None-Match", tag); res.StatusCode != http.StatusNotModified {
			t.Errorf("%s with the tag of %s: %d, want 304", tc.noisy, tc.plain, res.StatusCode)
		}
	}
	// The API refuses what the page ignores, cached or not.
	e.get("/api/v1/rankings/gpu-cloud", "Accept-Language", "en")
	for _, target := range []string{"/api/v1/rankings/gpu-cloud?interruptible=maybe", "/api/v1/rankings/gpu-cloud?scenario=nope"} {
		if res, _ := e.get(target); res.StatusCode != http.StatusUnprocessableEntity {
			t.Errorf("%s: %d, want 422", target, res.StatusCode)
		}
	}
}

// pubNonce matches the per-response CSP nonce in a page.
var pubNonce = regexp.MustCompile(`nonce="[^"]*"`)
