package desk

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"

	"github.com/crossrank/crossrank/domain"
)

// A first edition of 10,000 entries takes the domain seconds to preview,
// and the publish page shows that preview to every publisher who opens
// it. The preview changes only when the log does, so the page keeps the
// latest one of each ranking, keyed by the read models' position and the
// chosen proposals, and lets concurrent views of the same key wait for one
// computation instead of each running its own. A view may then show a
// preview computed for a newer state than the read models' (never an
// older one); publishing checks the preview's hash against the log anyway.
// A kept preview is dropped previewKeep after it was computed, so a large
// one does not stay in memory once the publishers have moved on.
type previewCache struct {
	flight singleflight.Group
	mu     sync.Mutex
	latest map[string]*previewed // by ranking
}

const previewKeep = 2 * time.Minute

type previewed struct {
	key string
	pv  domain.EditionPreview
	def *domain.Ranking
	ix  previewIndex
}

// previewKey names a preview: the ranking, the read models' position and
// the chosen proposal ids, in order.
func previewKey(ranking string, seq uint64, ids []string) string {
	h := sha256.New()
	h.Write([]byte(ranking))
	h.Write([]byte{0})
	h.Write(binary.BigEndian.AppendUint64(nil, seq))
	for _, id := range ids {
		h.Write([]byte(id))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// kept is the kept preview of ranking if it is key's, or nil.
func (c *previewCache) kept(ranking, key string) *previewed {
	c.mu.Lock()
	defer c.mu.Unlock()
	if p, ok := c.latest[ranking]; ok && p.key == key {
		return p
	}
	return nil
}

// preview returns the preview of key with its index, computing them at
// most once at a time. Refusals are not kept: they are cheap, and their
// words follow the request's language.
func (c *previewCache) preview(ctx context.Context, ranking, key string,
	compute func(context.Context) (domain.EditionPreview, *domain.Ranking, error)) (*previewed, error) {
	if p := c.kept(ranking, key); p != nil {
		return p, nil
	}
	v, err, _ := c.flight.Do(key, func() (any, error) {
		// A view that missed the kept preview just before another view's
		// computation of the same key ended starts a flight of its own:
		// look again before computing.
		if p := c.kept(ranking, key); p != nil {
			return p, nil
		}
		// The computation outlives a viewer who leaves: the others wait on it.
		pv, def, err := compute(context.WithoutCancel(ctx))
		if err != nil {
			return nil, err
		}
		p := &previewed{key: key, pv: pv, def: def, ix: indexPreview(pv)}
		c.mu.Lock()
		if c.latest == nil {
			c.latest = map[string]*previewed{}
		}
		c.latest[ranking] = p
		c.mu.Unlock()
		time.AfterFunc(previewKeep, func() {
			c.mu.Lock()
			defer c.mu.Unlock()
			if p, ok := c.latest[ranking]; ok && p.key == key {
				delete(c.latest, ranking)
			}
		})
		return p, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*previewed), nil
}
