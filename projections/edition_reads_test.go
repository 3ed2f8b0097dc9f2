package projections_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/events/jetstream"
)

// countingStore counts the per-aggregate reads (Load) made through it.
type countingStore struct {
	*jetstream.Store
	loads atomic.Int64
}

func (c *countingStore) Load(ctx context.Context, a events.Aggregate, after uint64) ([]events.Event, error) {
	c.loads.Add(1)
	return c.Store.Load(ctx, a, after)
}

// TestEditionReadsTheLogOnce previews and publishes an edition of 300
// new-entry proposals whose states the handler has cached, as a publisher
// does after a first preview: their 600 proposals and entries are brought
// up to date in one pass over the log, not one request each (each of
// which makes the server load a block of the log into its cache). The
// publish that must decide again on the stored state after a refused
// preview hash reloads them the same way.
func TestEditionReadsTheLogOnce(t *testing.T) {
	const entries = 300
	env, slug, ids := largeRanking(t, entries, 2)
	ctx := context.Background()
	store := &countingStore{Store: env.Store}
	h := handler.New(store, nil)
	if _, _, err := h.PreviewEdition(ctx, slug, ids); err != nil { // loads and caches them
		t.Fatal(err)
	}
	store.loads.Store(0)
	pv, _, err := h.PreviewEdition(ctx, slug, ids)
	if err != nil {
		t.Fatal(err)
	}
	if n := store.loads.Load(); n > 4 {
		t.Fatalf("a preview of %d cached proposals made %d reads of one aggregate each", entries, n)
	}
	store.loads.Store(0)
	c := domain.PublishEdition{Ranking: slug, Proposals: ids, PreviewHash: pv.SnapshotHash}
	if _, err := h.Publish(ctx, publisher, c); !errors.Is(err, domain.ErrPreviewChanged) {
		t.Fatalf("publish with a stale preview: %v, want ErrPreviewChanged", err)
	}
	if n := store.loads.Load(); n > 4 {
		t.Fatalf("deciding again on %d stored proposals made %d reads of one aggregate each", entries, n)
	}
	c.PreviewHash = pv.Hash
	res, err := h.Publish(ctx, publisher, c)
	if err != nil {
		t.Fatal(err)
	}
	ed, err := h.Edition(ctx, slug)
	if err != nil || ed.Number != 1 || len(ed.Entries) != entries || ed.Seq != res.Sequence-uint64(entries) {
		t.Fatalf("edition %d of %d entries at %d (%v), want 1 of %d before the %d proposals' events ending at %d",
			ed.Number, len(ed.Entries), ed.Seq, err, entries, entries, res.Sequence)
	}
}
