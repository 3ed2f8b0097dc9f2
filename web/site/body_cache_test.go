package site

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/crossrank/crossrank/domain/demo"
)

// TestPageCacheLRU: the least recently used body goes first, a hit makes a
// body recent, and a body larger than the bound is served but not kept.
func TestPageCacheLRU(t *testing.T) {
	raw := []byte(strings.Repeat("x", 1000))
	entry := newBodyCache(1).newBody("a", raw).size // keys of one letter
	c := newBodyCache(3 * entry)
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
			keys = append(keys, el.Value.(*cachedBody).key)
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
	if want := (CacheStats{Bytes: 3 * entry, Max: 3 * entry, Entries: 3, Hits: 4, Misses: 7, Evictions: 4}); st != want || builds != 7 {
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
	const bound = 4 << 20
	e := newEnv(t, bound)
	queries := distinctViews(t, n)
	for i, q := range queries {
		header := []string{"Accept-Language", "en"}
		if i%4 == 1 {
			header = append(header, "Accept-Encoding", "gzip")
		}
		if res, body := e.get("/r/gpu-cloud?"+q, header...); res.StatusCode != http.StatusOK {
			t.Fatalf("GET ?%s: %d %.200s", q, res.StatusCode, body)
		}
		if st := e.site.cache.stats(); st.Bytes > bound {
			t.Fatalf("after %d views the cache holds %d bytes, bound %d", i+1, st.Bytes, bound)
		}
	}
	c := e.site.cache
	c.mu.Lock()
	held, count := 0, 0
	for el := c.lru.Front(); el != nil; el = el.Next() {
		b := el.Value.(*cachedBody)
		held += (len(b.parts) - 1) * len(nonceMark) // the rendered bytes
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
		len(queries), st.Entries, st.Bytes, held, st.Hits, st.Misses, st.Evictions)
	if size < held {
		t.Errorf("the cache counts %d bytes, its entries hold %d", size, held)
	}
	if count < 2 || st.Evictions == 0 || st.Misses != uint64(len(queries)) {
		t.Errorf("%d bodies, %d misses, %d evictions: want several kept, one miss per view, evictions", count, st.Misses, st.Evictions)
	}
}

// distinctViews returns n queries for the demo ranking, each a different
// valid view: a scenario, a category and answers to the needs, counted in a
// mixed radix over every choice ("" is the default of each).
func distinctViews(t *testing.T, n int) []string {
	t.Helper()
	type dim struct {
		key    string
		values []string
	}
	dims := []dim{{key: "scenario", values: []string{""}}, {key: "category", values: []string{""}}}
	set := demo.File().Methodology
	for _, sc := range set.Scenarios {
		dims[0].values = append(dims[0].values, sc.Slug)
	}
	for _, c := range set.Categories {
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
