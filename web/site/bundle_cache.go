package site

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"sync"
)

// An edition's bundle is the same bytes on every request (an edition
// never changes and the signature is deterministic), and writing it
// replays the event stream up to the edition: far too much work to do per
// request. So each is written once and kept, in memory, for a few
// editions (bundleCacheEditions, the most recently asked for) and a bounded
// size in all (bundleCacheBytes). Requests arriving while one is written
// wait for it rather than writing their own. A bundle larger than the
// whole bound is served to those waiting for it and not kept.
//
// It is not gzip-compressed on the way: it is a zip whose files are
// deflated already.

const (
	bundleCacheEditions = 4
	bundleCacheBytes    = 64 << 20
)

// bundleKey names an edition's bundle.
type bundleKey struct {
	slug string
	n    int
}

// builtBundle is one bundle written, or being written until done closes.
type builtBundle struct {
	done chan struct{}
	name string // the file name it is offered under
	body []byte
	etag string // a strong ETag: the body's SHA-256
	err  error
}

// bundleCache keeps the bundles written, most recently used last.
type bundleCache struct {
	mu    sync.Mutex
	byKey map[bundleKey]*builtBundle
	order []bundleKey
	bytes int
}

func newBundleCache() *bundleCache { return &bundleCache{byKey: map[bundleKey]*builtBundle{}} }

// get returns k's bundle, written by build unless it is kept or being
// written already. A failed build is not kept: the next request tries
// again.
func (c *bundleCache) get(ctx context.Context, k bundleKey, build func() (name string, body []byte, err error)) (*builtBundle, error) {
	c.mu.Lock()
	b, ok := c.byKey[k]
	if ok {
		c.touch(k)
		c.mu.Unlock()
		select {
		case <-b.done:
			return b, b.err
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	b = &builtBundle{done: make(chan struct{})}
	c.byKey[k] = b
	c.order = append(c.order, k)
	c.mu.Unlock()

	b.name, b.body, b.err = build()
	if b.err == nil {
		sum := sha256.Sum256(b.body)
		b.etag = `"` + hex.EncodeToString(sum[:]) + `"`
	}
	close(b.done)

	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byKey[k] != b {
		return b, b.err // dropped while it was written
	}
	if b.err != nil || len(b.body) > bundleCacheBytes {
		c.drop(k)
		return b, b.err
	}
	c.bytes += len(b.body)
	for len(c.order) > bundleCacheEditions || c.bytes > bundleCacheBytes {
		c.drop(c.order[0])
	}
	return b, nil
}

// touch moves k to the most recently used end.
func (c *bundleCache) touch(k bundleKey) {
	if i := slices.Index(c.order, k); i >= 0 {
		c.order = append(slices.Delete(c.order, i, i+1), k)
	}
}

// drop forgets k (those holding its bundle keep it until they are done).
func (c *bundleCache) drop(k bundleKey) {
	b, ok := c.byKey[k]
	if !ok {
		return
	}
	delete(c.byKey, k)
	if i := slices.Index(c.order, k); i >= 0 {
		c.order = slices.Delete(c.order, i, i+1)
	}
	select {
	case <-b.done:
		if b.err == nil && len(b.body) <= bundleCacheBytes {
			c.bytes -= len(b.body)
		}
	default: // still being written: not counted yet
	}
}
