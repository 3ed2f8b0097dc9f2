package projections

import "sync"

// positionCache keeps answers that cost a scan (a queue's count, a
// ranking's ready proposals) for as long as the read models stay at one
// position: twenty editors opening the desk between two commits scan once.
// An answer is kept under the position read before the query ran, so it
// may reflect a newer state than its key (never an older one), and is
// dropped at the next commit.
type positionCache struct {
	mu   sync.Mutex
	seq  uint64
	vals map[string]any
}

// positionCacheSize bounds the answers kept at one position (one per
// user and queue): past it, the cache starts again.
const positionCacheSize = 4096

func (c *positionCache) get(seq uint64, key string) (any, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.seq != seq {
		return nil, false
	}
	v, ok := c.vals[key]
	return v, ok
}

func (c *positionCache) put(seq uint64, key string, v any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.seq != seq || len(c.vals) >= positionCacheSize {
		if seq < c.seq {
			return // a slow reader's answer: the cache is newer
		}
		c.seq, c.vals = seq, map[string]any{}
	}
	c.vals[key] = v
}

// atPosition returns load's answer for key at the read models' current
// position, loading it only when none is kept for that position.
func atPosition[T any](s *Store, key string, load func() (T, error)) (T, error) {
	seq, _ := s.Checkpoint()
	if v, ok := s.scans.get(seq, key); ok {
		return v.(T), nil
	}
	v, err := load()
	if err == nil {
		s.scans.put(seq, key, v)
	}
	return v, err
}
