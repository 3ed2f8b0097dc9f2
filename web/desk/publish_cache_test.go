package desk

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/crossrank/crossrank/domain"
)

// TestPreviewCacheComputesOncePerKey: concurrent views of one key wait for
// one computation and then share it; the read models moving on (a new
// key) computes again; a refusal is not kept.
func TestPreviewCacheComputesOncePerKey(t *testing.T) {
	var c previewCache
	var runs atomic.Int32
	release := make(chan struct{})
	compute := func(number int) func(context.Context) (domain.EditionPreview, *domain.Ranking, error) {
		return func(context.Context) (domain.EditionPreview, *domain.Ranking, error) {
			runs.Add(1)
			<-release
			return domain.EditionPreview{Number: number}, &domain.Ranking{Slug: "gpu"}, nil
		}
	}
	ids := []string{"p1", "p2"}
	key := previewKey("gpu", 7, ids)
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			p, err := c.preview(t.Context(), "gpu", key, compute(1))
			if err != nil || p.pv.Number != 1 || p.def.Slug != "gpu" {
				t.Errorf("preview = %+v, %v", p, err)
			}
		})
	}
	for runs.Load() == 0 { // until the first computation holds the key
		runtime.Gosched()
	}
	close(release)
	wg.Wait()
	if n := runs.Load(); n != 1 {
		t.Fatalf("20 concurrent views of one key computed %d previews, want 1", n)
	}
	if p, _ := c.preview(t.Context(), "gpu", key, compute(2)); p.pv.Number != 1 || runs.Load() != 1 {
		t.Fatalf("a later view of the same key computed again (edition %d, %d runs)", p.pv.Number, runs.Load())
	}
	if previewKey("gpu", 8, ids) == key || previewKey("gpu", 7, ids[:1]) == key || previewKey("cpu", 7, ids) == key {
		t.Fatal("keys of another position, choice or ranking collide")
	}
	if p, _ := c.preview(t.Context(), "gpu", previewKey("gpu", 8, ids), compute(2)); p.pv.Number != 2 || runs.Load() != 2 {
		t.Fatalf("the read models moved on, yet the old preview was shown (edition %d, %d runs)", p.pv.Number, runs.Load())
	}
	refused := errors.New("refused")
	fail := func(context.Context) (domain.EditionPreview, *domain.Ranking, error) {
		runs.Add(1)
		return domain.EditionPreview{}, nil, refused
	}
	k9 := previewKey("gpu", 9, ids)
	for range 2 {
		if _, err := c.preview(t.Context(), "gpu", k9, fail); !errors.Is(err, refused) {
			t.Fatalf("refusal: %v", err)
		}
	}
	if n := runs.Load(); n != 4 {
		t.Fatalf("a refusal was kept: %d runs, want 4", n)
	}
}
