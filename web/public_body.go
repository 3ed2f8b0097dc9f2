package web

import (
	"bytes"
	"container/list"
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"sync"
	"unsafe"

	"github.com/a-h/templ"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/ui"
)

// Public bodies are built once per edition. A public page or API answer
// depends only on published data, the ranking's definition, the language,
// the path and the query parameters it reads, the build and (for daily pages) today's date — what
// its ETag hashes (see pubCache.etag) — so while that tag holds, every
// reader who is not signed in gets the same bytes, bar the CSP nonce.
// Building a ranking of 1,000 entries (queries, view model, templates) costs
// about 100 ms of CPU and 6 MB of output; `crossrank bench` sends it 200
// readers at once. The cache keeps the rendered bytes, split where the nonce
// goes (and compressed, see public_gzip.go), and one build serves every
// concurrent reader of the same body.

// DefaultPageCacheBytes is the bound of the public body cache when
// Config.PageCacheBytes is zero.
const DefaultPageCacheBytes = 64 << 20

// pubBodyOverhead is what an entry costs beyond its bytes: the pubBody,
// its list element and its map slot.
const pubBodyOverhead = 256

// pubBody is a cached response body: parts joined by the request's nonce,
// and the same compressed on the first request that accepts gzip.
type pubBody struct {
	key   string
	parts [][]byte
	size  int           // bytes the entry holds, see newPubBody; grows with gz
	cache *pubBodyCache // that counts size

	gzOnce sync.Once
	gz     []pubGzipPart
	gzErr  error
}

// serve answers with the body, nonce in place of the mark, gzipped when
// the request accepts it.
func (b *pubBody) serve(w http.ResponseWriter, r *http.Request, nonce string) {
	w.Header().Add("Vary", "Accept-Encoding")
	if acceptsGzip(r) {
		b.gzOnce.Do(func() {
			b.gz, b.gzErr = gzipParts(b.parts)
			if b.gzErr == nil {
				b.cache.grow(b, gzipSize(b.gz))
			}
		})
		if b.gzErr == nil {
			writeGzip(w, b.gz, nonce)
			return
		}
	}
	w.WriteHeader(http.StatusOK)
	b.write(w, nonce)
}

// gzipSize is the memory the compressed parts hold.
func gzipSize(gz []pubGzipPart) int {
	n := cap(gz) * int(unsafe.Sizeof(pubGzipPart{}))
	for _, p := range gz {
		n += cap(p.deflated) + int(unsafe.Sizeof(crcShift{}))
	}
	return n
}

// pubBodyCache is a least-recently-used set of bodies, bounded in bytes,
// with one build in flight per key. Its keys come from pubBodyKey: the
// bodies of one edition differ only by what the key holds, so the bound,
// not the number of URLs a client can make up, limits the memory.
type pubBodyCache struct {
	max int // bytes; an entry larger is served but not kept

	mu       sync.Mutex
	size     int
	items    map[string]*list.Element
	lru      *list.List // of *pubBody, most recent first
	building map[string]*pubBuild

	hits, misses, evictions uint64
}

// newPubBodyCache returns a cache of at most max bytes; 0 means
// DefaultPageCacheBytes, and a negative max keeps nothing.
func newPubBodyCache(max int) *pubBodyCache {
	if max == 0 {
		max = DefaultPageCacheBytes
	}
	return &pubBodyCache{max: max, items: map[string]*list.Element{}, lru: list.New(), building: map[string]*pubBuild{}}
}

// pubBuild is a body being built; done closes when body and err are set.
type pubBuild struct {
	done chan struct{}
	body *pubBody
	err  error
}

// get returns the body for key, building it with build when it is not
// cached; concurrent callers with the same key wait for one build. A
// failed build is not kept, and a waiter whose leader failed builds on its
// own (the leader's request may have been cancelled). A caller that waited
// for another's build counts as a hit: it built nothing.
func (c *pubBodyCache) get(key string, build func() ([]byte, error)) (*pubBody, error) {
	c.mu.Lock()
	if el, ok := c.items[key]; ok {
		c.lru.MoveToFront(el)
		c.hits++
		c.mu.Unlock()
		return el.Value.(*pubBody), nil
	}
	if b, ok := c.building[key]; ok {
		c.mu.Unlock()
		<-b.done
		if b.err == nil {
			c.mu.Lock()
			c.hits++
			c.mu.Unlock()
			return b.body, nil
		}
		raw, err := build()
		if err != nil {
			return nil, err
		}
		return c.newBody(key, raw), nil
	}
	b := &pubBuild{done: make(chan struct{})}
	c.building[key] = b
	c.misses++
	c.mu.Unlock()

	raw, err := build()
	if err == nil {
		b.body = c.newBody(key, raw)
	}
	b.err = err
	c.mu.Lock()
	delete(c.building, key)
	if err == nil && b.body.size <= c.max {
		c.items[key] = c.lru.PushFront(b.body)
		c.size += b.body.size
		c.evict()
	}
	c.mu.Unlock()
	close(b.done)
	return b.body, err
}

// grow counts n more bytes held by b (its compressed parts), if b is still
// cached, and evicts what no longer fits — b too when it alone exceeds the
// bound; its readers keep their pointer.
func (c *pubBodyCache) grow(b *pubBody, n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b.size += n
	if el, ok := c.items[b.key]; !ok || el.Value.(*pubBody) != b {
		return
	}
	c.size += n
	c.evict()
}

// evict drops the least recently used bodies until the cache fits its
// bound; c.mu is held.
func (c *pubBodyCache) evict() {
	for c.size > c.max && c.lru.Len() > 0 {
		old := c.lru.Remove(c.lru.Back()).(*pubBody)
		delete(c.items, old.key)
		c.size -= old.size
		c.evictions++
	}
}

// pubBodyStats is a snapshot of a cache for /metrics.
type pubBodyStats struct {
	bytes, max, entries     int
	hits, misses, evictions uint64
}

func (c *pubBodyCache) stats() pubBodyStats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return pubBodyStats{bytes: c.size, max: c.max, entries: c.lru.Len(), hits: c.hits, misses: c.misses, evictions: c.evictions}
}

// writeMetrics reports the cache in the Prometheus text format.
func (c *pubBodyCache) writeMetrics(p promWriter) {
	st := c.stats()
	for _, m := range []struct {
		name, typ, help string
		v               float64
	}{
		{"crossrank_page_cache_bytes", "gauge", "Bytes held by cached public pages and API answers, compressed copies included.", float64(st.bytes)},
		{"crossrank_page_cache_max_bytes", "gauge", "The bound of the public page cache (--page-cache-bytes).", float64(max(st.max, 0))},
		{"crossrank_page_cache_entries", "gauge", "Public pages and API answers in the cache.", float64(st.entries)},
		{"crossrank_page_cache_hits_total", "counter", "Public bodies served without building them.", float64(st.hits)},
		{"crossrank_page_cache_misses_total", "counter", "Public bodies built because the cache did not hold them.", float64(st.misses)},
		{"crossrank_page_cache_evictions_total", "counter", "Cached public bodies dropped, least recently used first, to stay within the bound.", float64(st.evictions)},
	} {
		p.family(m.name, m.typ, m.help)
		p.sample(m.name, nil, m.v)
	}
}

// pubNonceMark stands in for the CSP nonce while a cached page renders: a
// random token no page text can contain by chance.
var pubNonceMark = func() []byte {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return []byte("nonce" + hex.EncodeToString(b))
}()

// newBody keeps raw in an array of its own length (a render buffer may be
// twice as large) and counts what the entry holds.
func (c *pubBodyCache) newBody(key string, raw []byte) *pubBody {
	raw = bytes.Clone(raw)
	parts := bytes.Split(raw, pubNonceMark)
	size := pubBodyOverhead + len(key) + cap(raw) + cap(parts)*int(unsafe.Sizeof(raw))
	return &pubBody{key: key, parts: parts, size: size, cache: c}
}

// write writes the body with nonce in place of the mark.
func (b *pubBody) write(w http.ResponseWriter, nonce string) {
	for i, p := range b.parts {
		if i > 0 {
			_, _ = w.Write([]byte(nonce))
		}
		_, _ = w.Write(p)
	}
}

// servePublicBody answers a public page from the cache, building it with
// build on a miss, for a reader who is not signed in (the caller checks).
// key identifies the body (see pubCache.etag); headers are render's.
func (s *Server) servePublicBody(w http.ResponseWriter, r *http.Request, key string, build func() (templ.Component, error)) {
	body, err := s.pageCache.get("page|"+key, func() ([]byte, error) {
		c, err := build()
		if err != nil {
			return nil, err
		}
		var buf bytes.Buffer
		err = c.Render(templ.WithNonce(r.Context(), string(pubNonceMark)), &buf)
		return buf.Bytes(), err
	})
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Add("Vary", "Cookie")
	h.Add("Vary", "Accept-Language")
	if h.Get("Cache-Control") == "" {
		h.Set("Cache-Control", "no-cache")
	}
	body.serve(w, r, httpx.Nonce(r.Context()))
}

// servePublicJSONBody answers a public API read from the cache.
func (s *Server) servePublicJSONBody(w http.ResponseWriter, r *http.Request, key string, build func(ctx context.Context) (any, error)) {
	body, err := s.pageCache.get("api|"+key, func() ([]byte, error) {
		v, err := build(r.Context())
		if err != nil {
			return nil, err
		}
		return pubJSON(v)
	})
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	body.serve(w, r, "")
}

// pubBodyKey returns the cache key of a public response: its validator and,
// for pages, the live-update address (it follows every ranking); ok is
// false for a signed-in reader, whose pages name them and are never shared.
//
// What enters the key, and why each is bounded: the resource kind; the
// edition mark of the ranking shown (one per edition: a publish makes new
// keys, and the old bodies age out); the language (en or zh, from ?lang=,
// the lang cookie or Accept-Language, whatever their raw values); the
// build; the path; the canonical query (c.query, from the parameters the
// handler reads, so unknown ones add nothing); today's date on daily pages;
// the live-update address (the newest edition of all). Accept-Encoding
// chooses between copies held by the same entry. Paths and valid queries
// are many, so the byte bound, not the keys, caps the memory.
func (s *Server) pubBodyKey(r *http.Request, c pubCache, live pubLive) (key string, ok bool) {
	if httpx.User(r.Context()) != nil {
		return "", false
	}
	return c.etag(httpx.Now(r.Context()), r.URL.Path) + "|" + live.URL + "|" + live.Ranking, true
}
