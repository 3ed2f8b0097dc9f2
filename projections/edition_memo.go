package projections

import "sync"

// editionMemoSize bounds each memo: pages and answers ask for a ranking's
// current edition, so a few rankings' worth is enough.
const editionMemoSize = 16

// editionKey names what an edition of a ranking published: it never
// changes once the edition is projected.
type editionKey struct {
	ranking string
	edition int
}

// editionMemo holds the last editionMemoSize answers computed from an
// edition; concurrent callers of the same key wait for one computation.
type editionMemo[T any] struct {
	max   int // answers kept; 0: editionMemoSize
	mu    sync.Mutex
	items map[editionKey]*memoItem[T]
	order []editionKey // least recently asked first
}

type memoItem[T any] struct {
	done chan struct{} // closed when v and err are set
	v    T
	err  error
	keep bool // false: the answer was for another edition, not remembered
}

// get returns the answer for the ranking's edition, computing it if it is
// not remembered.
func (m *editionMemo[T]) get(ranking string, edition int, compute func() (T, error)) (T, error) {
	return m.getIf(ranking, edition, func() (T, bool, error) {
		v, err := compute()
		return v, true, err
	})
}

// getIf is get where compute also reports whether its answer is the edition's
// (false when it found a newer edition projected meanwhile): only then is
// it remembered.
func (m *editionMemo[T]) getIf(ranking string, edition int, compute func() (T, bool, error)) (T, error) {
	k := editionKey{ranking, edition}
	m.mu.Lock()
	if m.items == nil {
		m.items = map[editionKey]*memoItem[T]{}
	}
	it, ok := m.items[k]
	if ok {
		m.touch(k)
		m.mu.Unlock()
		<-it.done
		return it.v, it.err
	}
	it = &memoItem[T]{done: make(chan struct{})}
	m.items[k] = it
	m.order = append(m.order, k)
	size := m.max
	if size == 0 {
		size = editionMemoSize
	}
	for len(m.order) > size {
		delete(m.items, m.order[0])
		m.order = m.order[1:]
	}
	m.mu.Unlock()
	it.v, it.keep, it.err = compute()
	close(it.done)
	if it.err != nil || !it.keep { // not remembered: the next caller computes again
		m.mu.Lock()
		if m.items[k] == it {
			delete(m.items, k)
			m.order = deleteKey(m.order, k)
		}
		m.mu.Unlock()
	}
	return it.v, it.err
}

// touch moves k to the end of the order (most recently asked).
func (m *editionMemo[T]) touch(k editionKey) {
	m.order = append(deleteKey(m.order, k), k)
}

func deleteKey(order []editionKey, k editionKey) []editionKey {
	for i, o := range order {
		if o == k {
			return append(order[:i], order[i+1:]...)
		}
	}
	return order
}
