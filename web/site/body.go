package site

import (
	"bytes"
	"container/list"
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"strconv"
	"sync"
	"unsafe"

	"github.com/a-h/templ"
	"github.com/crossrank/crossrank/web/httpx"
	"github.com/crossrank/crossrank/web/ui"
)

// Public bodies are built once per edition. A public page or API answer
// depends only on published data, the ranking's definition, the language,
// the path and the query parameters it reads, the build and (for daily pages) today's date — what
// its ETag hashes (see validator.etag) — so while that tag holds, every
// reader who is not signed in gets the same bytes, bar the CSP nonce.
// Building a ranking of 1,000 entries (queries, view model, templates) costs
// about 100 ms of CPU and 6 MB of output; `crossrank bench` sends it 200
// readers at once. The cache keeps the rendered bytes, split where the nonce
// goes (and compressed, see gzip.go), and one build serves every
// concurrent reader of the same body.

// DefaultPageCacheBytes is the bound of the public body cache when
// Config.PageCacheBytes is zero.
const DefaultPageCacheBytes = 64 << 20

// bodyOverhead is what an entry costs beyond its bytes: the cachedBody,
// its list element and its map slot.
const bodyOverhead = 256

// cachedBody is a cached response body: parts joined by the request's nonce,
// and the same compressed on the first request that accepts gzip.
type cachedBody struct {
	key   string
	parts [][]byte
	size  int        // bytes the entry holds, see newBody; grows with gz
	cache *bodyCache // that counts size

	gzOnce sync.Once
	gz     []gzipPart
	gzErr  error
}

// serve answers with the body, nonce in place of the mark, gzipped when
// the request accepts it. The compressed copy is made by the first such
// request and kept with the body, so a body is compressed once while it
// is cached, however many readers fetch it.
func (b *cachedBody) serve(w http.ResponseWriter, r *http.Request, nonce string) {
	w.Header().Add("Vary", "Accept-Encoding")
	if acceptsGzip(r) {
		b.gzOnce.Do(func() {
			b.gz, b.gzErr = gzipParts(b.parts)
			if b.gzErr == nil {
				b.cache.compressed(b, gzipSize(b.gz))
			}
		})
		if b.gzErr == nil {
			writeGzip(w, b.gz, nonce)
			return
		}
	}
	n := (len(b.parts) - 1) * len(nonce)
	for _, p := range b.parts {
		n += len(p)
	}
	w.Header().Set("Content-Length", strconv.Itoa(n))
	w.WriteHeader(http.StatusOK)
	b.write(w, nonce)
}

// gzipSize is the memory the compressed parts hold.
func gzipSize(gz []gzipPart) int {
	n := cap(gz) * int(unsafe.Sizeof(gzipPart{}))
	for _, p := range gz {
		n += cap(p.deflated) + int(unsafe.Sizeof(crcShift{}))
	}
	return n
}

// bodyCache is a least-recently-used set of bodies, bounded in bytes,
// with one build in flight per key. Its keys come from bodyKey: the
// bodies of one edition differ only by what the key holds, so the bound,
// not the number of URLs a client can make up, limits the memory.
type bodyCache struct {
	max int // bytes; an entry larger is served but not kept

	mu       sync.Mutex
	size     int
	items    map[string]*list.Element
	lru      *list.List // of *cachedBody, most recent first
	building map[string]*inFlight

	hits, misses, evictions uint64
	compressions            uint64 // bodies gzipped (see cachedBody.serve)
}

// newBodyCache returns a cache of at most max bytes; 0 means
// DefaultPageCacheBytes, and a negative max keeps nothing.
func newBodyCache(max int) *bodyCache {
	if max == 0 {
		max = DefaultPageCacheBytes
	}
	return &bodyCache{max: max, items: map[string]*list.Element{}, lru: list.New(), building: map[string]*inFlight{}}
}

// inFlight is a body being built; done closes when body and err are set.
type inFlight struct {
	done chan struct{}
	body *cachedBody
	err  error
}

// get returns the body for key, building it with build when it is not
// cached; concurrent callers with the same key wait for one build. A
// failed build is not kept, and a waiter whose leader failed builds on its
// own (the leader's request may have been cancelled). A caller that waited
// for another's build counts as a hit: it built nothing.
func (c *bodyCache) get(key string, build func() ([]byte, error)) (*cachedBody, error) {
	c.mu.Lock()
	if el, ok := c.items[key]; ok {
		c.lru.MoveToFront(el)
		c.hits++
		c.mu.Unlock()
		return el.Value.(*cachedBody), nil
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
	b := &inFlight{done: make(chan struct{})}
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

// compressed counts b's compression and the n more bytes b holds for it,
// if b is still cached, and evicts what no longer fits — b too when it
// alone exceeds the bound; its readers keep their pointer.
func (c *bodyCache) compressed(b *cachedBody, n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.compressions++
	b.size += n
	if el, ok := c.items[b.key]; !ok || el.Value.(*cachedBody) != b {
		return
	}
	c.size += n
	c.evict()
}

// evict drops the least recently used bodies until the cache fits its
// bound; c.mu is held.
func (c *bodyCache) evict() {
	for c.size > c.max && c.lru.Len() > 0 {
		old := c.lru.Remove(c.lru.Back()).(*cachedBody)
		delete(c.items, old.key)
		c.size -= old.size
		c.evictions++
	}
}

// CacheStats is a snapshot of the page cache, for /metrics.
type CacheStats struct {
	Bytes, Max, Entries     int // Max is the bound; negative: the cache keeps nothing
	Hits, Misses, Evictions uint64
	Compressions            uint64 // bodies gzipped: once per body while it stays cached
}

func (c *bodyCache) stats() CacheStats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return CacheStats{Bytes: c.size, Max: c.max, Entries: c.lru.Len(), Hits: c.hits, Misses: c.misses, Evictions: c.evictions,
		Compressions: c.compressions}
}

// CacheStats reports the page cache's size and use.
func (s *Site) CacheStats() CacheStats { return s.cache.stats() }

// nonceMark stands in for the CSP nonce while a cached page renders: a
// random token no page text can contain by chance.
var nonceMark = func() []byte {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return []byte("nonce" + hex.EncodeToString(b))
}()

// newBody keeps raw in an array of its own length (a render buffer may be
// twice as large) and counts what the entry holds.
func (c *bodyCache) newBody(key string, raw []byte) *cachedBody {
	raw = bytes.Clone(raw)
	parts := bytes.Split(raw, nonceMark)
	size := bodyOverhead + len(key) + cap(raw) + cap(parts)*int(unsafe.Sizeof(raw))
	return &cachedBody{key: key, parts: parts, size: size, cache: c}
}

// write writes the body with nonce in place of the mark.
func (b *cachedBody) write(w http.ResponseWriter, nonce string) {
	for i, p := range b.parts {
		if i > 0 {
			_, _ = w.Write([]byte(nonce))
		}
		_, _ = w.Write(p)
	}
}

// serveBody answers a public page from the cache, building it with
// build on a miss, for a reader who is not signed in (the caller checks).
// key identifies the body (see validator.etag); headers are render's.
func (s *Site) serveBody(w http.ResponseWriter, r *http.Request, key string, build func() (templ.Component, error)) {
	body, err := s.cache.get("page|"+key, func() ([]byte, error) {
		c, err := build()
		if err != nil {
			return nil, err
		}
		var buf bytes.Buffer
		err = c.Render(templ.WithNonce(r.Context(), string(nonceMark)), &buf)
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

// serveJSONBody answers a public API read from the cache.
func (s *Site) serveJSONBody(w http.ResponseWriter, r *http.Request, key string, build func(ctx context.Context) (any, error)) {
	body, err := s.cache.get("api|"+key, func() ([]byte, error) {
		v, err := build(r.Context())
		if err != nil {
			return nil, err
		}
		return marshalJSON(v)
	})
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	body.serve(w, r, "")
}

// bodyKey returns the cache key of a public response: its validator and,
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
func (s *Site) bodyKey(r *http.Request, c validator, live liveUpdates) (key string, ok bool) {
	if httpx.User(r.Context()) != nil {
		return "", false
	}
	return c.etag(httpx.Now(r.Context()), r.URL.Path) + "|" + live.URL + "|" + live.Ranking, true
}
