package site

import (
	"context"
	"sync"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/projections"
)

// Every public request asks the read models for edition marks (its
// validator, and the live-update address that follows every ranking) and
// the public ranking page for the definition too. Those answers change
// only when the read models commit, so they are kept until the next commit
// (projections.Store.Changed): with a cached body, the mark of all rankings
// — a scan of the states table — was three quarters of a page's CPU.

// memoEntry is a read-model answer and the commit that ends its validity.
type memoEntry[T any] struct {
	v       T
	changed <-chan struct{}
}

// markMemo holds the current marks and definitions of a server.
type markMemo struct {
	mu    sync.Mutex
	marks map[string]memoEntry[projections.EditionMark]
	defs  map[string]memoEntry[rankingDefinition]
	waczs map[string]memoEntry[string] // wacz.go: waczVersion
}

type rankingDefinition struct {
	r      *domain.Ranking
	latest int
}

func newMarkMemo() *markMemo {
	return &markMemo{marks: map[string]memoEntry[projections.EditionMark]{}, defs: map[string]memoEntry[rankingDefinition]{},
		waczs: map[string]memoEntry[string]{}}
}

// memoized returns the memo of key in m while no commit happened since it
// was read, else reads it again with load. The commit channel is taken
// before the read: a commit during the read ends the new memo at once.
func memoized[T any](s *Site, m map[string]memoEntry[T], key string, load func() (T, error)) (T, error) {
	mm := s.memo
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
	m[key] = memoEntry[T]{v, changed}
	mm.mu.Unlock()
	return v, nil
}

// editionMark is read.EditionMark, memoized until the next commit.
func (s *Site) editionMark(ctx context.Context, ranking string) (projections.EditionMark, error) {
	return memoized(s, s.memo.marks, ranking, func() (projections.EditionMark, error) {
		m, err := s.read.EditionMark(ctx, ranking)
		if err == nil && ranking != "" && m.Edition < 1 {
			// Defined by a proposal still open (or never published): not
			// public, and every public page and answer about it is a 404.
			return m, projections.ErrNotFound
		}
		return m, err
	})
}

// definition is read.Definition, memoized until the next commit. The
// ranking returned is shared: callers must not change it.
func (s *Site) definition(ctx context.Context, slug string) (*domain.Ranking, int, error) {
	d, err := memoized(s, s.memo.defs, slug, func() (rankingDefinition, error) {
		r, latest, err := s.read.Definition(ctx, slug)
		if err == nil && latest < 1 {
			return rankingDefinition{}, projections.ErrNotFound // not public yet
		}
		return rankingDefinition{r, latest}, err
	})
	return d.r, d.latest, err
}
