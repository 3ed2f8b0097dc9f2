package site

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// TestArchiveCache: an archive is written once however many requests
// ask for it at once, and kept; a failed write is not kept; the cache
// keeps at most archiveCacheEntries archives and max bytes, dropping the
// least recently asked for; one larger than the bound is served and not
// kept; a dropped archive's file stays readable by the request reading it
// and is closed after.
func TestArchiveCache(t *testing.T) {
	t.Parallel()
	c := newArchiveCache()
	c.dir = t.TempDir()
	var writes atomic.Int64
	body := func(key string) string { return strings.Repeat(key+";", 100) }
	writer := func(key string) func(context.Context, io.Writer) error {
		return func(_ context.Context, w io.Writer) error {
			writes.Add(1)
			_, err := io.WriteString(w, body(key))
			return err
		}
	}
	get := func(key string, write func(context.Context, io.Writer) error) (int, string, error) {
		rec := httptest.NewRecorder()
		err := c.serve(rec, httptest.NewRequest(http.MethodGet, "/"+key, nil), key, write, func() {})
		return rec.Code, rec.Body.String(), err
	}

	// Many at once: one write.
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if code, got, err := get("a", writer("a")); err != nil || code != http.StatusOK || got != body("a") {
				t.Errorf("GET a: %d %v", code, err)
			}
		}()
	}
	wg.Wait()
	if n := writes.Load(); n != 1 {
		t.Errorf("8 requests at once wrote the archive %d times, want 1", n)
	}

	// A failed write answers its error and is tried again.
	failed := errors.New("archive unavailable")
	if _, _, err := get("b", func(context.Context, io.Writer) error { return failed }); !errors.Is(err, failed) {
		t.Errorf("a failed write: %v", err)
	}
	if _, got, err := get("b", writer("b")); err != nil || got != body("b") {
		t.Errorf("after a failed write: %q %v", got, err)
	}

	// Bounded by count: the least recently asked for goes first.
	writes.Store(0)
	for i := range archiveCacheEntries {
		get("k"+strconv.Itoa(i), writer("k"+strconv.Itoa(i)))
	}
	c.mu.Lock()
	_, keptA := c.byKey["a"]
	kept, bytes := len(c.byKey), c.bytes
	c.mu.Unlock()
	if keptA || kept != archiveCacheEntries {
		t.Errorf("after %d more archives: %d kept, a kept %v", archiveCacheEntries, kept, keptA)
	}
	var want int64
	for i := range archiveCacheEntries {
		want += int64(len(body("k" + strconv.Itoa(i))))
	}
	if bytes != want {
		t.Errorf("bytes kept %d, want %d", bytes, want)
	}

	// Bounded by size: one larger than the bound is served, not kept.
	c.mu.Lock()
	c.max = 1000
	c.mu.Unlock()
	big := strings.Repeat("x", 1001)
	for range 2 {
		if _, got, err := get("big", func(_ context.Context, w io.Writer) error {
			writes.Add(1)
			_, err := io.WriteString(w, big)
			return err
		}); err != nil || got != big {
			t.Errorf("GET big: %d bytes, %v", len(got), err)
		}
	}
	c.mu.Lock()
	_, keptBig := c.byKey["big"]
	c.mu.Unlock()
	if keptBig {
		t.Errorf("an archive over the bound is kept")
	}

	// Dropped while read: readable to its reader, closed after.
	a, err := c.get(context.Background(), "held", writer("held"))
	if err != nil {
		t.Fatal(err)
	}
	c.mu.Lock()
	c.drop("held", a)
	c.mu.Unlock()
	got, err := io.ReadAll(io.NewSectionReader(a.file, 0, a.size))
	if err != nil || string(got) != body("held") {
		t.Errorf("a dropped archive's reader reads %q, %v", got, err)
	}
	f := a.file
	c.release(a)
	if _, err := f.Stat(); err == nil {
		t.Errorf("the file of a dropped archive is open after its last reader")
	}
}
