package site

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"net/http"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/crossrank/crossrank/web/httpx"
)

// The web archives the site offers (an edition's WACZ, a capture's WARC
// record) are read by replay tools a range at a time: ReplayWeb.page asks
// for the zip's directory, then the index, then each record, dozens of
// requests for one page. Each archive is the same bytes every time (an
// edition never changes; a capture's record is stored once), so it is
// written once, to a temporary file, and every request is a range of that
// file, served by http.ServeContent (Range, 206, 416, If-None-Match, 304)
// under a strong ETag, its SHA-256. Writing again per request would read
// every cited record from the archive for each range.
//
// A few archives are kept (archiveCacheEntries, the most recently asked
// for), in a bounded size on disk in all (archiveCacheBytes). Requests
// arriving while one is written wait for it. An archive larger than the
// whole bound is served to those waiting for it and not kept. The file is
// unlinked as soon as it is created where the system allows it, so a
// crash leaves nothing behind; it is closed when it is dropped and the
// last request reading it is done.

const (
	archiveCacheEntries = 16
	archiveCacheBytes   = 1 << 30
)

// keptArchive is one archive written, or being written until done closes.
type keptArchive struct {
	done chan struct{}
	file *archiveFile
	size int64
	etag string // a strong ETag: the file's SHA-256
	err  error

	// Guarded by the cache's mutex.
	readers int  // requests reading the file now
	dropped bool // no longer kept: close the file when readers is 0
}

// archiveCache keeps the archives written, most recently used last.
type archiveCache struct {
	dir   string // where the files are written; "": os.TempDir
	mu    sync.Mutex
	byKey map[string]*keptArchive
	order []string
	bytes int64
	max   int64 // the bound on bytes; archiveCacheBytes unless a test sets it
}

func newArchiveCache() *archiveCache {
	return &archiveCache{byKey: map[string]*keptArchive{}, max: archiveCacheBytes}
}

// serve answers r with the archive under key, written by write unless it
// is kept or being written already; header sets the answer's headers
// (type, disposition, caching) once the archive is there. A failed write
// is not kept, and its error is returned for the caller to answer: the
// next request tries again. write runs with a context that outlives r:
// the requests waiting for it share it.
func (c *archiveCache) serve(w http.ResponseWriter, r *http.Request, key string, write func(ctx context.Context, w io.Writer) error, header func()) error {
	a, err := c.get(r.Context(), key, write)
	if err != nil {
		return err
	}
	defer c.release(a)
	header()
	w.Header().Set("ETag", a.etag)
	http.ServeContent(&rangeRefusal{ResponseWriter: w, r: r}, r, "", time.Time{}, io.NewSectionReader(a.file, 0, a.size))
	return nil
}

// errRange says no range asked for lies within the archive.
var errRange = codedError{code: "archive.range", err: errors.New("site: no range asked for overlaps the archive")}

// codedError is an error with its catalog key.
type codedError struct {
	code string
	err  error
}

func (e codedError) Error() string { return e.err.Error() }
func (e codedError) Code() string  { return e.code }

// rangeRefusal answers http.ServeContent's 416 (no range overlaps the
// file) as a problem, as the archives' other errors are, keeping the
// Content-Range ("bytes */size") it sets; ServeContent's own text is
// dropped.
type rangeRefusal struct {
	http.ResponseWriter
	r       *http.Request
	refused bool
}

func (w *rangeRefusal) WriteHeader(code int) {
	if code != http.StatusRequestedRangeNotSatisfiable {
		w.ResponseWriter.WriteHeader(code)
		return
	}
	w.refused = true
	w.Header().Del("Content-Disposition")
	httpx.WriteProblem(w.ResponseWriter, w.r, code, errRange)
}

func (w *rangeRefusal) Write(p []byte) (int, error) {
	if w.refused {
		return len(p), nil
	}
	return w.ResponseWriter.Write(p)
}

// get returns key's archive, held for reading until release.
func (c *archiveCache) get(ctx context.Context, key string, write func(ctx context.Context, w io.Writer) error) (*keptArchive, error) {
	c.mu.Lock()
	a, ok := c.byKey[key]
	if ok {
		c.touch(key)
		a.readers++
		c.mu.Unlock()
		select {
		case <-a.done:
			if a.err != nil {
				c.release(a)
				return nil, a.err
			}
			return a, nil
		case <-ctx.Done():
			c.release(a)
			return nil, ctx.Err()
		}
	}
	a = &keptArchive{done: make(chan struct{}), readers: 1}
	c.byKey[key] = a
	c.order = append(c.order, key)
	c.mu.Unlock()

	a.file, a.size, a.etag, a.err = c.write(context.WithoutCancel(ctx), write)
	close(a.done)

	c.mu.Lock()
	defer c.mu.Unlock()
	if a.err != nil {
		c.drop(key, a)
		c.releaseLocked(a)
		return nil, a.err
	}
	if c.byKey[key] != a || a.size > c.max {
		c.drop(key, a) // dropped while written, or too large to keep
		return a, nil
	}
	c.bytes += a.size
	for len(c.order) > archiveCacheEntries || c.bytes > c.max {
		c.drop(c.order[0], c.byKey[c.order[0]])
	}
	return a, nil
}

// write writes an archive to a new temporary file and returns it with its
// size and ETag.
func (c *archiveCache) write(ctx context.Context, write func(ctx context.Context, w io.Writer) error) (*archiveFile, int64, string, error) {
	f, err := os.CreateTemp(c.dir, "crossrank-archive-*")
	if err != nil {
		return nil, 0, "", err
	}
	// Unlinked now, the file lives while it is open. Where the system
	// refuses (Windows), it is removed when closed.
	af := &archiveFile{File: f, unlinked: os.Remove(f.Name()) == nil}
	sum := sha256.New()
	cw := &countingWriter{w: io.MultiWriter(f, sum)}
	if err := write(ctx, cw); err != nil {
		af.close()
		return nil, 0, "", err
	}
	return af, cw.n, `"` + hex.EncodeToString(sum.Sum(nil)) + `"`, nil
}

// archiveFile is a kept archive's temporary file.
type archiveFile struct {
	*os.File
	unlinked bool // removed from its directory already
}

// close closes the file and removes it unless it was unlinked already.
func (f *archiveFile) close() {
	f.Close()
	if !f.unlinked {
		os.Remove(f.Name())
	}
}

// release ends a request's read of a.
func (c *archiveCache) release(a *keptArchive) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.releaseLocked(a)
}

func (c *archiveCache) releaseLocked(a *keptArchive) {
	a.readers--
	if a.readers == 0 && a.dropped && a.file != nil {
		a.file.close()
		a.file = nil
	}
}

// touch moves key to the most recently used end.
func (c *archiveCache) touch(key string) {
	if i := slices.Index(c.order, key); i >= 0 {
		c.order = append(slices.Delete(c.order, i, i+1), key)
	}
}

// drop forgets key's archive a; the requests reading it keep it until
// they are done, and the last one closes it.
func (c *archiveCache) drop(key string, a *keptArchive) {
	if c.byKey[key] == a {
		delete(c.byKey, key)
		if i := slices.Index(c.order, key); i >= 0 {
			c.order = slices.Delete(c.order, i, i+1)
		}
		select {
		case <-a.done:
			if a.err == nil && a.size <= c.max && !a.dropped {
				c.bytes -= a.size
			}
		default: // still being written: not counted yet
		}
	}
	a.dropped = true
	if a.readers == 0 && a.file != nil {
		a.file.close()
		a.file = nil
	}
}

// countingWriter counts the bytes written through it.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// allowArchiveReaders lets a page on any origin read a public archive with
// fetch, as a web archive player on another site does (the WACZ spec asks
// for CORS), and see the headers a ranged read needs. Nothing it answers
// depends on cookies: only public archives are marked.
func allowArchiveReaders(h http.Header) {
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("Access-Control-Expose-Headers", "Content-Range, Accept-Ranges, ETag, Content-Length, Content-Disposition")
}

// archivePreflight answers a CORS preflight for an archive. A player on
// another origin reads a zip's directory with a suffix range
// ("bytes=-22"), which, unlike "bytes=0-", is not a header the Fetch
// standard lets through unasked: the browser asks with OPTIONS first, and
// without this answer the player cannot open the WACZ at all.
func archivePreflight(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	allowArchiveReaders(h)
	h.Set("Access-Control-Allow-Methods", "GET, HEAD")
	h.Set("Access-Control-Allow-Headers", "Range, If-Range, If-None-Match")
	h.Set("Access-Control-Max-Age", "86400")
	w.WriteHeader(http.StatusNoContent)
}
