package projections

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/crossrank/crossrank/domain"
)

// TestStabilityMemo: concurrent callers of one ranking and edition share
// one computation; a failed one is not remembered; the memo keeps at most
// stabilityMemoSize answers, dropping the least recently asked.
func TestStabilityMemo(t *testing.T) {
	var m stabilityMemo
	var calls atomic.Int32
	answer := map[string]domain.EntryStability{"a": {Others: 1}}
	compute := func() (map[string]domain.EntryStability, error) { calls.Add(1); return answer, nil }
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() {
			if st, err := m.get("r", 1, compute); err != nil || st["a"].Others != 1 {
				t.Errorf("get = %v, %v", st, err)
			}
		})
	}
	wg.Wait()
	if n := calls.Load(); n != 1 {
		t.Errorf("%d computations for one key", n)
	}

	boom := errors.New("boom")
	if _, err := m.get("r", 2, func() (map[string]domain.EntryStability, error) { return nil, boom }); err != boom {
		t.Fatalf("err = %v", err)
	}
	if _, err := m.get("r", 2, compute); err != nil || calls.Load() != 2 {
		t.Errorf("a failure was remembered: %v, %d calls", err, calls.Load())
	}

	for e := 3; e < 3+stabilityMemoSize; e++ {
		m.get("r", 1, compute) // keep r/1 the most recently asked
		m.get("r", e, compute)
	}
	if len(m.items) != stabilityMemoSize || len(m.order) != stabilityMemoSize {
		t.Errorf("%d items, %d in order; want %d", len(m.items), len(m.order), stabilityMemoSize)
	}
	if _, ok := m.items[stabilityKey{"r", 1}]; !ok {
		t.Error("the most recently asked answer was dropped")
	}
	if _, ok := m.items[stabilityKey{"r", 2}]; ok {
		t.Error("the least recently asked answer was kept")
	}
}
