package projections_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/events/jetstream"
	"github.com/crossrank/crossrank/events/jetstream/jstest"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/projections/history"
)

// maxPayload is nats-server's default max_payload, which the embedded
// server keeps: no stored message may be larger.
const maxPayload = 1 << 20

// TestLargeFirstEdition publishes the first edition of a 10,000-entry ×
// 10-criterion ranking (100,000 changes) through the command handler. It
// is one edition — one EditionPublished, number 1, every entry ranked —
// whose committed snapshot hash is the one the pure domain computes from
// the replayed stream; no stored message exceeds max_payload; Verify
// passes; a rebuild of the read models holds it whole; and the publishes
// that fail store nothing. (TestLargeEditionLiveAndReplayed compares the
// live read models with a replay, at a size a test can project twice.)
func TestLargeFirstEdition(t *testing.T) {
	if testing.Short() {
		t.Skip("150,000 events: not with -short")
	}
	entries, criteria := 10_000, 10
	if raceEnabled {
		entries = 1_000 // the same paths, split into parts; full size runs without -race
	}
	env, slug, ids := largeRanking(t, entries, criteria)
	ctx := context.Background()
	res, pv := publishLarge(t, env, slug, ids, entries, criteria)
	checkStream(t, env, res, pv, entries)

	peak := heapPeak(t)
	start := time.Now()
	if _, err := projections.Verify(ctx, env.Store, nil); err != nil {
		t.Fatalf("verify: %v", err)
	}
	t.Logf("verified the stream in %s: %s", time.Since(start), peak())
	path := filepath.Join(t.TempDir(), "rebuilt.db")
	peak, start = heapPeak(t), time.Now()
	if _, err := projections.Rebuild(ctx, env.Store, path); err != nil {
		t.Fatal(err)
	}
	t.Logf("rebuilt the read models in %s: %s", time.Since(start), peak())
	checkTables(t, open(t, path), slug, entries, criteria)
}

// TestLargeEditionLiveAndReplayed publishes an edition split into parts
// while the read models tail the stream, as in production, and checks that
// a fresh replay of the stream gives the same tables, row for row
// (Verify with the live database). A reader polling the read models
// meanwhile never sees the edition with some of its proposals still
// ready to publish: the edition and its proposals commit together, though
// they are more events than one of the projection's batches.
func TestLargeEditionLiveAndReplayed(t *testing.T) {
	if testing.Short() {
		t.Skip("full run only: projects a 1,000 x 10 edition live and replayed; go test -short skips it")
	}
	const entries, criteria = 1_000, 10
	env, slug, ids := largeRanking(t, entries, criteria)
	ps := open(t, filepath.Join(t.TempDir(), "read.db"))
	runCtx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() {
		if err := ps.Run(runCtx, env.Store, nil); err != nil {
			t.Errorf("run: %v", err)
		}
	})
	t.Cleanup(func() { stop(); wg.Wait() })
	if entries+1 <= projections.BatchSize { // the head and one ProposalPublished per entry
		t.Fatalf("an edition of %d proposals fits one batch of %d events: the test would not split it", entries, projections.BatchSize)
	}
	polled, halves := 0, 0
	pollDone := make(chan struct{})
	var poller sync.WaitGroup
	poller.Go(func() {
		for {
			select {
			case <-pollDone:
				return
			default:
			}
			var editions, ready int
			if err := ps.DB().QueryRowContext(context.Background(), `SELECT
				(SELECT count(*) FROM editions WHERE ranking=?),
				(SELECT count(*) FROM proposals WHERE ranking=? AND status='cross_validated')`, slug, slug).Scan(&editions, &ready); err != nil {
				t.Errorf("poll: %v", err)
				return
			}
			polled++
			if editions > 0 && ready > 0 {
				halves++
			}
			time.Sleep(time.Millisecond)
		}
	})
	res, pv := publishLarge(t, env, slug, ids, entries, criteria)
	checkStream(t, env, res, pv, entries)
	waitApplied(t, ps, res.Sequence)
	close(pollDone)
	poller.Wait()
	if halves > 0 {
		t.Errorf("%d of %d reads saw edition 1 with proposals still ready to publish", halves, polled)
	}
	checkTables(t, ps, slug, entries, criteria)
	if _, err := projections.Verify(context.Background(), env.Store, ps.DB()); err != nil {
		t.Fatalf("verify: %v", err)
	}
}

// largeRanking starts a store holding a ranking of entries new-entry
// proposals, each scoring every one of criteria, all cross-validated.
func largeRanking(t *testing.T, entries, criteria int) (*jstest.Env, string, []string) {
	t.Helper()
	env := jstest.Start(t)
	start := time.Now()
	slug, ids, err := history.LargeRanking(context.Background(), env.Store, history.ReadyEdition{Entries: entries, Criteria: criteria, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("dataset written in %s", time.Since(start))
	return env, slug, ids
}

// publishLarge previews and publishes every proposal as the first
// edition, after two publishes that must store nothing: one with a preview
// that no longer holds, and one through a store told the server's default
// batch limit (it refuses before sending; the server would too).
func publishLarge(t *testing.T, env *jstest.Env, slug string, ids []string, entries, criteria int) (handler.Result, domain.EditionPreview) {
	t.Helper()
	ctx := context.Background()
	h := handler.New(env.Store, nil)
	pv := previewLarge(t, h, slug, ids, entries, criteria)
	before, err := env.Store.LastSequence(ctx)
	if err != nil {
		t.Fatal(err)
	}
	c := domain.PublishEdition{Ranking: slug, Proposals: ids, PreviewHash: pv.Hash, Note: "The first edition."}
	stale := c
	stale.PreviewHash = pv.SnapshotHash
	if _, err := h.Publish(ctx, publisher, stale); !errors.Is(err, domain.ErrPreviewChanged) {
		t.Fatalf("publish with a stale preview: %v, want ErrPreviewChanged", err)
	}
	nc, err := env.Server.Connect("default-limit")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	small, err := jetstream.Open(ctx, nc, jetstream.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := handler.New(small, nil).Publish(ctx, publisher, c); !errors.Is(err, events.ErrTooLarge) {
		t.Fatalf("publish over the server's batch limit: %v, want ErrTooLarge", err)
	}
	if last, err := env.Store.LastSequence(ctx); err != nil || last != before {
		t.Fatalf("refused publishes stored events: last %d, was %d (%v)", last, before, err)
	}
	peak := heapPeak(t)
	start := time.Now()
	res, err := h.Publish(ctx, publisher, c)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("published in %s: %s", time.Since(start), peak())
	if want := before + uint64(entries) + 1 + uint64(parts(t, h, slug)); res.Sequence != want {
		t.Fatalf("publish stored up to %d, want %d (one event per proposal, the parts and the head)", res.Sequence, want)
	}
	return res, pv
}

// previewLarge previews the edition as the publish page does, and keeps
// only the hashes the publisher posts back: no server keeps a page's
// preview while the edition is published.
func previewLarge(t *testing.T, h *handler.Handler, slug string, ids []string, entries, criteria int) domain.EditionPreview {
	t.Helper()
	start := time.Now()
	pv, _, err := h.PreviewEdition(context.Background(), slug, ids)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("previewed in %s", time.Since(start))
	if len(pv.Changes) != entries*criteria || len(pv.NewEntries) != entries {
		t.Fatalf("preview: %d changes, %d new entries", len(pv.Changes), len(pv.NewEntries))
	}
	return domain.EditionPreview{Hash: pv.Hash, SnapshotHash: pv.SnapshotHash}
}

// checkStream replays the stream: one edition, whose snapshot hash is the
// one the pure domain computes from the replayed events, every entry
// ranked, and no message over max_payload.
func checkStream(t *testing.T, env *jstest.Env, res handler.Result, pv domain.EditionPreview, entries int) {
	t.Helper()
	peak := heapPeak(t)
	var heads int
	var committed string
	r, ed := &domain.Ranking{}, &domain.Edition{}
	if err := env.Store.Replay(context.Background(), 1, func(ev events.Event) error {
		_, hdr, body, err := events.Encode(ev)
		if err != nil {
			return err
		}
		if n := len(body) + headerBytes(hdr); n > maxPayload {
			return fmt.Errorf("event %d (%s): %d bytes > max_payload %d", ev.Sequence, ev.Type, n, maxPayload)
		}
		switch d := ev.Data.(type) {
		case *events.RankingDefined, *events.ScenariosSet:
			r.Evolve(ev)
		case *events.EditionPartRecorded:
			ed.Evolve(ev)
		case *events.EditionPublished:
			heads++
			committed = d.SnapshotHash
			ed.Evolve(ev)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if heads != 1 || ed.Number != 1 || len(ed.Entries) != entries {
		t.Fatalf("stream holds %d editions, number %d, %d entries; want one edition 1 of %d", heads, ed.Number, len(ed.Entries), entries)
	}
	snap := domain.BuildSnapshot(r, ed)
	if got := snap.Hash(); got != committed || got != pv.SnapshotHash {
		t.Fatalf("replayed snapshot %s, committed %s, previewed %s", got, committed, pv.SnapshotHash)
	}
	for _, e := range snap.Entries {
		if e.Rank < 1 || e.Rank > entries {
			t.Fatalf("entry %s ranked %d", e.Slug, e.Rank)
		}
	}
	t.Logf("replayed the stream into the domain: %s", peak())
}

// checkTables reads the edition back from read models that applied it.
func checkTables(t *testing.T, ps *projections.Store, slug string, entries, criteria int) {
	t.Helper()
	var ranked, changes, published int
	if err := ps.DB().QueryRowContext(context.Background(), `SELECT
		(SELECT count(*) FROM entries WHERE ranking=? AND published_edition=1 AND rank>0),
		(SELECT count(*) FROM edition_changes WHERE ranking=? AND number=1),
		(SELECT json_array_length(proposals) FROM editions WHERE ranking=? AND number=1)`,
		slug, slug, slug).Scan(&ranked, &changes, &published); err != nil {
		t.Fatal(err)
	}
	if ranked != entries || changes != entries*criteria || published != entries {
		t.Fatalf("read models: %d ranked, %d changes, %d proposals; want %d, %d, %d", ranked, changes, published, entries, entries*criteria, entries)
	}
}

// parts returns how many parts the ranking's latest edition has.
func parts(t *testing.T, h *handler.Handler, slug string) int {
	t.Helper()
	ed, err := h.Edition(context.Background(), slug)
	if err != nil {
		t.Fatal(err)
	}
	if ed.Last.Size == nil {
		t.Fatal("the edition was not split into parts")
	}
	return ed.Last.Size.Parts
}

// headerBytes is the size of a message's headers as NATS frames them.
func headerBytes(h events.Header) int {
	n := len("NATS/1.0\r\n\r\n")
	for k, vs := range h {
		for _, v := range vs {
			n += len(k) + len(v) + 4
		}
	}
	return n
}

// heapPeak samples the Go heap until the function it returns is called,
// and returns the largest samples: what the figures in the report come
// from, logged, never asserted. It starts from a collected heap, so that
// the figure is the step's own: without it, the garbage the step before
// left (and the collector's goal, twice what was live at the last
// collection, which may have been in the middle of that step) counts too.
func heapPeak(t *testing.T) func() heapFigures {
	runtime.GC()
	var peak heapFigures
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		var ms runtime.MemStats
		live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			runtime.ReadMemStats(&ms)
			metrics.Read(live)
			peak.inUse = max(peak.inUse, ms.HeapInuse)
			peak.live = max(peak.live, live[0].Value.Uint64())
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	})
	var once sync.Once
	stopSampling := func() heapFigures { once.Do(func() { close(done); wg.Wait() }); return peak }
	t.Cleanup(func() { stopSampling() })
	return stopSampling
}

// heapFigures are the largest heap in use (live objects and the garbage
// not yet collected) and the largest heap found live by a collection; the
// collector lets the heap grow to about twice what it found live.
type heapFigures struct{ inUse, live uint64 }

func (f heapFigures) String() string {
	return fmt.Sprintf("heap peak %d MiB (at most %d MiB live)", f.inUse>>20, f.live>>20)
}
