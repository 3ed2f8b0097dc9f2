package web

import (
	"context"
	"runtime"
	"sync"
	"weak"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/projections"
)

// Every public request asks the read models for edition marks (its
// validator, and the live-update address that follows every ranking) and
// the public ranking page for the definition too. Those answers change
// only when the read models commit, so they are kept until the next commit
// (projections.Store.Changed): with a cached body, the mark of all rankings
// — a scan of the states table — was three quarters of a page's CPU.

// pubMemo is a read-model answer and the commit that ends its validity.
type pubMemo[T any] struct {
	v       T
	changed <-chan struct{}
}

// pubMarkMemo holds the current marks and definitions of a server.
type pubMarkMemo struct {
	mu    sync.Mutex
	marks map[string]pubMemo[projections.EditionMark]
	defs  map[string]pubMemo[pubDefinition]
}

type pubDefinition struct {
	r      *domain.Ranking
	latest int
}

var pubMarkMemos sync.Map // weak.Pointer[Server] → *pubMarkMemo

func (s *Server) markMemo() *pubMarkMemo {
	key := weak.Make(s)
	if m, ok := pubMarkMemos.Load(key); ok {
		return m.(*pubMarkMemo)
	}
	m, loaded := pubMarkMemos.LoadOrStore(key, &pubMarkMemo{marks: map[string]pubMemo[projections.EditionMark]{},
		defs: map[string]pubMemo[pubDefinition]{}})
	if !loaded {
		runtime.AddCleanup(s, func(k weak.Pointer[Server]) { pubMarkMemos.Delete(k) }, key)
	}
	return m.(*pubMarkMemo)
}

// memoized returns the memo of key in m while no commit happened since it
// was read, else reads it again with load. The commit channel is taken
// before the read: a commit during the read ends the new memo at once.
func memoized[T any](s *Server, m map[string]pubMemo[T], key string, load func() (T, error)) (T, error) {
	mm := s.markMemo()
	mm.mu.Lock()
	e, ok := m[key]
	mm.mu.Unlock()
	if ok {
		select {
		case <-e.changed:
		default:
			return e.v, nil
		}
	}
	changed := s.read.Changed()
	v, err := load()
	if err != nil {
		return v, err
	}
	mm.mu.Lock()
	if len(m) > 1000 {
		clear(m) // slugs come from URLs: keep the map small
	}
	m[key] = pubMemo[T]{v, changed}
	mm.mu.Unlock()
	return v, nil
}

// editionMark is read.EditionMark, memoized until the next commit.
func (s *Server) editionMark(ctx context.Context, ranking string) (projections.EditionMark, error) {
	return memoized(s, s.markMemo().marks, ranking, func() (projections.EditionMark, error) {
		return s.read.EditionMark(ctx, ranking)
	})
}

// definition is read.Definition, memoized until the next commit. The
// ranking returned is shared: callers must not change it.
func (s *Server) definition(ctx context.Context, slug string) (*domain.Ranking, int, error) {
	d, err := memoized(s, s.markMemo().defs, slug, func() (pubDefinition, error) {
		r, latest, err := s.read.Definition(ctx, slug)
		return pubDefinition{r, latest}, err
	})
	return d.r, d.latest, err
}
