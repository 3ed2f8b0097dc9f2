package capture_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/crossrank/crossrank/cmd/crossrank/capture"
	"github.com/crossrank/crossrank/events/jetstream/jstest"
)

// TestArchiveOpen streams a record's body and checks it is what Get reads;
// a record whose body does not match its key is refused.
func TestArchiveOpen(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	env := jstest.Start(t)
	a, js := openArchive(t, env)
	body := "<p>价格</p>" + strings.Repeat("x", 300<<10)
	rec := record("https://example.org/p", body)
	key, _, err := a.Put(ctx, rec)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 { // the second Open trusts the first one's check
		o, err := a.Open(ctx, key)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(o)
		o.Close()
		if err != nil || string(got) != body || o.Size != int64(len(body)) || o.TargetURI != "https://example.org/p" ||
			o.Header.Get("Content-Type") != "text/html; charset=utf-8" {
			t.Fatalf("Open: %v, size %d, %d bytes read, target %s", err, o.Size, len(got), o.TargetURI)
		}
	}

	// A record stored under another body's key.
	obs, err := js.ObjectStore(ctx, capture.Bucket)
	if err != nil {
		t.Fatal(err)
	}
	forged := record("https://example.org/f", "<p>not what the key says</p>")
	raw, _ := forged.MarshalBinary()
	wrong := strings.Repeat("ab", 32)
	if _, err := obs.PutBytes(ctx, wrong, raw); err != nil {
		t.Fatal(err)
	}
	for range 2 { // a failed check is not remembered as passed
		if _, err := a.Open(ctx, wrong); !errors.Is(err, capture.ErrRecord) {
			t.Errorf("Open of a record under the wrong key: %v, want ErrRecord", err)
		}
	}
	// A body altered after its digests were written.
	altered := bytes.Replace(raw, []byte("not what"), []byte("NOT WHAT"), 1)
	if _, err := obs.PutBytes(ctx, forged.Key(), altered); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Open(ctx, forged.Key()); !errors.Is(err, capture.ErrRecord) {
		t.Errorf("Open of an altered record: %v, want ErrRecord", err)
	}
}

// TestArchiveOpenMemory has 50 readers stream a 10 MiB capture at once,
// slowly, as 50 anonymous readers of a large page would, and bounds the
// growth of the process's heap (the embedded NATS server's included)
// while they do: reading a body a chunk at a time, each reader costs a
// fraction of one copy of the page (garbage not yet collected included).
// Reading each record whole, as Get does, would hold 50 copies: 500 MiB.
func TestArchiveOpenMemory(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("reads 500 MiB from the archive")
	}
	ctx := context.Background()
	env := jstest.Start(t)
	a, _ := openArchive(t, env)
	rec := record("https://example.org/big", strings.Repeat("<p>price list</p>\n", (capture.DefaultMaxBody-1024)/18))
	key, _, err := a.Put(ctx, rec)
	if err != nil {
		t.Fatal(err)
	}
	size := int64(len(rec.Body))
	rec = nil
	// The check on first Open is made once, before the crowd.
	if o, err := a.Open(ctx, key); err != nil {
		t.Fatal(err)
	} else {
		o.Close()
	}

	const readers = 50
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	var peak atomic.Uint64
	stop := make(chan struct{})
	var sampler sync.WaitGroup
	sampler.Go(func() {
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			if m.HeapAlloc > peak.Load() {
				peak.Store(m.HeapAlloc)
			}
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	})
	var wg sync.WaitGroup
	var started sync.WaitGroup
	started.Add(readers)
	for range readers {
		wg.Go(func() {
			o, err := a.Open(ctx, key)
			started.Done()
			if err != nil {
				t.Error(err)
				return
			}
			defer o.Close()
			started.Wait() // every reader holds its stream open at once
			n, err := io.Copy(slowWriter{}, o)
			if err != nil || n != size {
				t.Errorf("read %d of %d bytes: %v", n, size, err)
			}
		})
	}
	wg.Wait()
	close(stop)
	sampler.Wait()
	growth := int64(peak.Load()) - int64(base.HeapAlloc)
	const bound = 128 << 20
	t.Logf("%d readers of a %d MiB capture: heap grew by %.1f MiB at most (bound %d MiB)", readers, size>>20,
		float64(growth)/(1<<20), bound>>20)
	if growth > bound {
		t.Errorf("heap grew by %d MiB under %d readers, want at most %d MiB", growth>>20, readers, bound>>20)
	}
}

// slowWriter takes its time over each write, as a reader on a slow link
// does, so that the readers overlap.
type slowWriter struct{}

func (slowWriter) Write(p []byte) (int, error) {
	time.Sleep(time.Millisecond)
	return len(p), nil
}
