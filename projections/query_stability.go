package projections

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/crossrank/crossrank/domain"
)

// Stability returns how solid each rank of an edition is, by entry
// (domain.Stability of the edition's stored snapshot); empty when the
// ranking has no such edition. It is computed on demand, not projected: an
// edition's snapshot never changes, so the answer is memoised per ranking
// and edition for the few editions read last (the current ones). The map
// is shared by every caller: read it, never change it.
func (s *Store) Stability(ctx context.Context, ranking string, edition int) (map[string]domain.EntryStability, error) {
	return s.stability.get(ranking, edition, func() (map[string]domain.EntryStability, error) {
		// Not the caller's context: the answer is shared with whoever
		// waits for it, and a cancelled request must not fail theirs.
		var raw string
		err := s.db.QueryRowContext(context.WithoutCancel(ctx),
			`SELECT snapshot FROM editions WHERE ranking=? AND number=?`, ranking, edition).Scan(&raw)
		if errors.Is(err, sql.ErrNoRows) {
			return map[string]domain.EntryStability{}, nil
		}
		if err != nil {
			return nil, err
		}
		var snap domain.Snapshot
		if err := json.Unmarshal([]byte(raw), &snap); err != nil {
			return nil, fmt.Errorf("edition %s/%d: snapshot: %w", ranking, edition, err)
		}
		return domain.Stability(snap), nil
	})
}

// stabilityMemoSize bounds the memo: a ranking's pages and answers ask for
// its current edition, so a few rankings' worth is enough.
const stabilityMemoSize = 16

type stabilityKey struct {
	ranking string
	edition int
}

// stabilityMemo holds the last stabilityMemoSize answers; concurrent
// callers of the same key wait for one computation.
type stabilityMemo struct {
	mu    sync.Mutex
	items map[stabilityKey]*stabilityItem
	order []stabilityKey // least recently asked first
}

type stabilityItem struct {
	done chan struct{} // closed when st and err are set
	st   map[string]domain.EntryStability
	err  error
}

func (m *stabilityMemo) get(ranking string, edition int, compute func() (map[string]domain.EntryStability, error)) (map[string]domain.EntryStability, error) {
	k := stabilityKey{ranking, edition}
	m.mu.Lock()
	if m.items == nil {
		m.items = map[stabilityKey]*stabilityItem{}
	}
	it, ok := m.items[k]
	if ok {
		m.touch(k)
		m.mu.Unlock()
		<-it.done
		return it.st, it.err
	}
	it = &stabilityItem{done: make(chan struct{})}
	m.items[k] = it
	m.order = append(m.order, k)
	for len(m.order) > stabilityMemoSize {
		delete(m.items, m.order[0])
		m.order = m.order[1:]
	}
	m.mu.Unlock()
	it.st, it.err = compute()
	close(it.done)
	if it.err != nil { // not remembered: the next caller tries again
		m.mu.Lock()
		if m.items[k] == it {
			delete(m.items, k)
			m.order = deleteKey(m.order, k)
		}
		m.mu.Unlock()
	}
	return it.st, it.err
}

// touch moves k to the end of the order (most recently asked).
func (m *stabilityMemo) touch(k stabilityKey) {
	m.order = append(deleteKey(m.order, k), k)
}

func deleteKey(order []stabilityKey, k stabilityKey) []stabilityKey {
	for i, o := range order {
		if o == k {
			return append(order[:i], order[i+1:]...)
		}
	}
	return order
}
