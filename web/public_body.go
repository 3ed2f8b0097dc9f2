package web

import (
	"bytes"
	"container/list"
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"runtime"
	"sync"
	"weak"

	"github.com/a-h/templ"
)

// Public bodies are built once per edition. A public page or API answer
// depends only on published data, the ranking's definition, the language,
// the path and query, the build and (for daily pages) today's date — what
// its ETag hashes (see pubCache.etag) — so while that tag holds, every
// reader who is not signed in gets the same bytes, bar the CSP nonce.
// Building a ranking of 1,000 entries (queries, view model, templates) costs
// about 100 ms of CPU and 6 MB of output; `crossrank bench` sends it 200
// readers at once. The cache keeps the rendered bytes, split where the nonce
// goes (and compressed, see public_gzip.go), and one build serves every
// concurrent reader of the same body.

// pubBodyMaxBytes bounds the memory the cache holds; a larger body is not kept.
const (
	pubBodyMaxBytes  = 64 << 20
	pubBodyMaxSingle = 16 << 20
)

// pubBody is a cached response body: parts joined by the request's nonce,
// and the same compressed on the first request that accepts gzip.
type pubBody struct {
	key   string
	parts [][]byte
	size  int

	gzOnce sync.Once
	gz     []pubGzipPart
	gzErr  error
}

// serve answers with the body, nonce in place of the mark, gzipped when
// the request accepts it.
func (b *pubBody) serve(w http.ResponseWriter, r *http.Request, nonce string) {
	w.Header().Add("Vary", "Accept-Encoding")
	if acceptsGzip(r) {
		b.gzOnce.Do(func() { b.gz, b.gzErr = gzipParts(b.parts) })
		if b.gzErr == nil {
			writeGzip(w, b.gz, nonce)
			return
		}
	}
	w.WriteHeader(http.StatusOK)
	b.write(w, nonce)
}

// pubBodyCache is a least-recently-used set of bodies with one build in
// flight per key.
type pubBodyCache struct {
	mu       sync.Mutex
	size     int
	items    map[string]*list.Element
	lru      *list.List // of *pubBody, most recent first
	building map[string]*pubBuild
}

// pubBuild is a body being built; done closes when body and err are set.
type pubBuild struct {
	done chan struct{}
	body *pubBody
	err  error
}

// pubBodies finds a server's cache (as pubHubs do: the Server struct belongs
// to the foundation). Weak keys let a server that is gone (tests make many)
// take its cache with it.
var pubBodies sync.Map // weak.Pointer[Server] → *pubBodyCache

func (s *Server) bodies() *pubBodyCache {
	key := weak.Make(s)
	if c, ok := pubBodies.Load(key); ok {
		return c.(*pubBodyCache)
	}
	c, loaded := pubBodies.LoadOrStore(key, &pubBodyCache{items: map[string]*list.Element{}, lru: list.New(),
		building: map[string]*pubBuild{}})
	if !loaded {
		runtime.AddCleanup(s, func(k weak.Pointer[Server]) { pubBodies.Delete(k) }, key)
	}
	return c.(*pubBodyCache)
}

// get returns the body for key, building it with build when it is not
// cached; concurrent callers with the same key wait for one build. A
// failed build is not kept, and a waiter whose leader failed builds on its
// own (the leader's request may have been cancelled).
func (c *pubBodyCache) get(key string, build func() ([]byte, error)) (*pubBody, error) {
	c.mu.Lock()
	if el, ok := c.items[key]; ok {
		c.lru.MoveToFront(el)
		c.mu.Unlock()
		return el.Value.(*pubBody), nil
	}
	if b, ok := c.building[key]; ok {
		c.mu.Unlock()
		<-b.done
		if b.err == nil {
			return b.body, nil
		}
		raw, err := build()
		if err != nil {
			return nil, err
		}
		return newPubBody(key, raw), nil
	}
	b := &pubBuild{done: make(chan struct{})}
	c.building[key] = b
	c.mu.Unlock()

	raw, err := build()
	if err == nil {
		b.body = newPubBody(key, raw)
	}
	b.err = err
	c.mu.Lock()
	delete(c.building, key)
	if err == nil && b.body.size <= pubBodyMaxSingle {
		c.items[key] = c.lru.PushFront(b.body)
		c.size += b.body.size
		for c.size > pubBodyMaxBytes {
			old := c.lru.Remove(c.lru.Back()).(*pubBody)
			delete(c.items, old.key)
			c.size -= old.size
		}
	}
	c.mu.Unlock()
	close(b.done)
	return b.body, err
}

// pubNonceMark stands in for the CSP nonce while a cached page renders: a
// random token no page text can contain by chance.
var pubNonceMark = func() []byte {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return []byte("nonce" + hex.EncodeToString(b))
}()

func newPubBody(key string, raw []byte) *pubBody {
	return &pubBody{key: key, parts: bytes.Split(raw, pubNonceMark), size: len(raw)}
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
	body, err := s.bodies().get("page|"+key, func() ([]byte, error) {
		c, err := build()
		if err != nil {
			return nil, err
		}
		var buf bytes.Buffer
		err = c.Render(templ.WithNonce(r.Context(), string(pubNonceMark)), &buf)
		return buf.Bytes(), err
	})
	if err != nil {
		s.fail(w, r, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Add("Vary", "Cookie")
	h.Add("Vary", "Accept-Language")
	if h.Get("Cache-Control") == "" {
		h.Set("Cache-Control", "no-cache")
	}
	body.serve(w, r, nonceOf(r.Context()))
}

// servePublicJSONBody answers a public API read from the cache.
func (s *Server) servePublicJSONBody(w http.ResponseWriter, r *http.Request, key string, build func(ctx context.Context) (any, error)) {
	body, err := s.bodies().get("api|"+key, func() ([]byte, error) {
		v, err := build(r.Context())
		if err != nil {
			return nil, err
		}
		return pubJSON(v)
	})
	if err != nil {
		s.fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	body.serve(w, r, "")
}

// pubBodyKey returns the cache key of a public response: its validator and,
// for pages, the live-update address (it follows every ranking); ok is
// false for a signed-in reader, whose pages name them and are never shared.
func (s *Server) pubBodyKey(r *http.Request, c pubCache, live pubLive) (key string, ok bool) {
	if userOf(r.Context()) != nil {
		return "", false
	}
	q := r.URL.Query()
	q.Del("lang")
	return c.etag(requestOf(r.Context()).now, r.URL.Path, q.Encode()) + "|" + live.URL + "|" + live.Ranking, true
}
