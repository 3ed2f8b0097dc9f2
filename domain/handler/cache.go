package handler

import (
	"container/list"
	"sync"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
)

// slot is one cached aggregate. mu serialises commands on the aggregate in
// this process; state is replaced, never mutated, so a reader may hold it.
type slot struct {
	mu     sync.Mutex
	state  any
	seq    uint64
	ids    map[string]uint64 // event id → sequence, to recognise retries
	loaded bool              // state holds the aggregate's events up to seq
	// behind: events after seq may exist that the state lacks (an append
	// whose outcome is unknown, a failed read-back); refreshed before the
	// next decision, while reads may still show the state during an outage.
	behind bool
	// checked: the aggregate has no event between seq and checked (a
	// LoadMany read the log up to it), so a refresh reads on from there.
	checked uint64
	elem    *list.Element
}

func (e *slot) apply(ev events.Event) {
	if e.ids == nil {
		e.ids = map[string]uint64{}
	}
	e.ids[ev.ID] = ev.Sequence
	e.seq = ev.Sequence
	e.state = domain.Evolved(e.state, ev)
}

// stateCache bounds the number of cached aggregates, dropping the least
// recently used. An evicted aggregate is simply loaded again.
type stateCache struct {
	mu    sync.Mutex
	max   int
	items map[events.Aggregate]*slot
	lru   *list.List
}

func newStateCache(max int) *stateCache {
	return &stateCache{max: max, items: map[events.Aggregate]*slot{}, lru: list.New()}
}

// loaded reports whether a is cached and loaded, without making it recent.
func (c *stateCache) loaded(a events.Aggregate) bool {
	c.mu.Lock()
	e, ok := c.items[a]
	c.mu.Unlock()
	if !ok {
		return false
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.loaded
}

func (c *stateCache) get(a events.Aggregate) *slot {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.items[a]; ok {
		c.lru.MoveToFront(e.elem)
		return e
	}
	e := &slot{}
	e.elem = c.lru.PushFront(a)
	c.items[a] = e
	for c.lru.Len() > c.max {
		old := c.lru.Back()
		c.lru.Remove(old)
		delete(c.items, old.Value.(events.Aggregate))
	}
	return e
}
