package site

import (
	"archive/zip"
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"net/http"
	pathpkg "path"
	"strconv"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/i18n"
	"github.com/crossrank/crossrank/web/ui"
)

// An edition's archive (GET /r/{slug}/editions/{n}/evidence.wacz) is a
// WACZ 1.1.1 file (specs.webrecorder.net/wacz/1.1.1) for any web archive
// tool (ReplayWeb.page, pywb, py-wacz): the WARC records of the pages its
// evidence cites, as archived, in archive/data.warc (stored, not
// deflated, so a player reads a record by its range); their CDXJ index in
// indexes/index.cdx (wacz_index.go), without which a player finds no
// page; a list of them in pages/pages.jsonl; datapackage.json with the
// archive's title, description and dates and each file's size and
// SHA-256; and datapackage-digest.json with the SHA-256 of
// datapackage.json. It is written once, a record at a time, the digests
// computed while writing, and kept (archive_cache.go).

// waczFile is the archive's name under /r/{slug}/editions/{n}/.
const waczFile = "evidence.wacz"

// Wacz is edition n's archive of cited pages, "" when the site keeps none.
func (l linkSet) Wacz(slug string, n int) string {
	if l.static || !l.captures {
		return ""
	}
	return l.Download(slug, n, waczFile)
}

// evidenceWACZ serves GET /r/{slug}/editions/{n}/evidence.wacz as an
// attachment, from the archives kept (archive_cache.go): a range of it
// (206), or 304 to a reader holding its ETag, to any origin, as the WACZ
// spec asks of servers so that a player (ReplayWeb.page) reads it in
// place. Writing it takes one of the capture slots, as a body does.
func (s *Site) evidenceWACZ(w http.ResponseWriter, r *http.Request) {
	n, err := strconv.Atoi(r.PathValue("n"))
	if s.captures == nil || err != nil || n < 1 {
		ui.Fail(w, r, domain.ErrNotFound)
		return
	}
	slug := r.PathValue("slug")
	h := w.Header()
	allowArchiveReaders(h) // every capture listed is public: a published edition cites it
	version, err := s.waczVersion(r.Context(), slug, n)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	err = s.archives.serve(w, r, "wacz "+slug+" "+strconv.Itoa(n)+" "+version, func(ctx context.Context, out io.Writer) error {
		release, err := s.captureSlots.acquire(r)
		if err != nil {
			return err
		}
		defer release()
		ed, err := s.read.EditionOverview(ctx, slug, n)
		if err != nil {
			return err
		}
		caps, err := s.read.EditionCaptures(ctx, slug, n)
		if err != nil {
			return err
		}
		return writeWACZ(ctx, out, s.captures, waczAbout(ed.EditionDetail), caps)
	}, func() {
		h.Set("Content-Type", "application/wacz")
		h.Set("Content-Disposition", `attachment; filename="`+slug+"-edition-"+strconv.Itoa(n)+`.wacz"`)
		h.Set("Cache-Control", "public, max-age=86400")
		h.Set("X-Content-Type-Options", "nosniff")
	})
	if err != nil {
		ui.Fail(w, r, err)
	}
}

// waczVersion names what edition n's archive holds now, the SHA-256 of
// its list of captures, and with it the archive kept: a page is captured
// after the edition citing it is published, and an archive written before
// must not be served after. It is read again after each commit of the
// read models, a query per edition asked for, not per range read.
func (s *Site) waczVersion(ctx context.Context, slug string, n int) (string, error) {
	return memoized(s, s.memo.waczs, slug+" "+strconv.Itoa(n), func() (string, error) {
		caps, err := s.read.EditionCaptures(ctx, slug, n)
		if err != nil {
			return "", err
		}
		sum := sha256.New()
		for _, c := range caps {
			fmt.Fprintf(sum, "%s %s %s\n", c.SHA256, c.URL, c.At)
		}
		return hex.EncodeToString(sum.Sum(nil)), nil
	})
}

// waczMeta is what datapackage.json says of an archive.
type waczMeta struct {
	title, description string
	created            string // RFC 3339: the edition's publication
}

// waczAbout describes edition ed's archive, in both languages: a player
// shows the title and description as they are.
func waczAbout(ed projections.EditionDetail) waczMeta {
	m := waczMeta{created: ed.PublishedAt}
	if t, err := time.Parse(time.RFC3339Nano, ed.PublishedAt); err == nil {
		m.created = t.UTC().Format(time.RFC3339)
	}
	m.title = i18n.T(i18n.En, "wacz.title", ed.Title.En, ed.Number) + " · " + i18n.T(i18n.Zh, "wacz.title", ed.Title.Zh, ed.Number)
	m.description = i18n.T(i18n.En, "wacz.description", ed.Ranking, ed.Number) + "\n\n" + i18n.T(i18n.Zh, "wacz.description", ed.Ranking, ed.Number)
	return m
}

// waczResource is one file's line in datapackage.json.
type waczResource struct {
	Name  string `json:"name"`
	Path  string `json:"path"`
	Hash  string `json:"hash"` // "sha256:" and the hex digest
	Bytes int64  `json:"bytes"`
}

// waczEntry is a zip entry being written, its size and digest kept.
type waczEntry struct {
	w   io.Writer
	sum hash.Hash
	n   int64
}

func (e *waczEntry) Write(p []byte) (int, error) {
	n, err := e.w.Write(p)
	e.sum.Write(p[:n])
	e.n += int64(n)
	return n, err
}

func (e *waczEntry) digest() string { return "sha256:" + hex.EncodeToString(e.sum.Sum(nil)) }

func (e *waczEntry) resource(path string) waczResource {
	return waczResource{Name: pathpkg.Base(path), Path: path, Hash: e.digest(), Bytes: e.n}
}

func newWACZEntry(zw *zip.Writer, path string, method uint16) (*waczEntry, error) {
	w, err := zw.CreateHeader(&zip.FileHeader{Name: path, Method: method, Modified: time.Unix(0, 0).UTC()})
	if err != nil {
		return nil, err
	}
	return &waczEntry{w: w, sum: sha256.New()}, nil
}

// writeWACZ writes the archive of caps to w: the records in
// archive/data.warc, their index, the pages, datapackage.json and its
// digest. A capture the archive no longer holds is left out of all of
// them. The same captures make the same bytes: the zip's times are fixed
// and the dates are the edition's.
func writeWACZ(ctx context.Context, w io.Writer, copies Captures, meta waczMeta, caps []projections.EditionCapture) error {
	zw := zip.NewWriter(w)
	data, err := newWACZEntry(zw, "archive/data.warc", zip.Store) // the spec: archive files are stored, for ranged reads
	if err != nil {
		return err
	}
	kept := caps[:0:0]
	var lines []indexLine
	for _, c := range caps {
		line, err := copyRecord(ctx, data, copies, c.SHA256)
		if errors.Is(err, ErrNoCapture) {
			continue
		}
		if err != nil {
			return fmt.Errorf("site: capture %s: %w", c.SHA256, err)
		}
		kept = append(kept, c)
		lines = append(lines, line)
	}
	index, err := newWACZEntry(zw, "indexes/index.cdx", zip.Deflate)
	if err != nil {
		return err
	}
	cdx, err := cdxj("data.warc", lines)
	if err != nil {
		return err
	}
	if _, err := index.Write(cdx); err != nil {
		return err
	}
	pages, err := newWACZEntry(zw, "pages/pages.jsonl", zip.Deflate)
	if err != nil {
		return err
	}
	if err := writePages(pages, meta.title, kept); err != nil {
		return err
	}
	manifest, err := json.MarshalIndent(struct {
		Profile     string         `json:"profile"`
		Version     string         `json:"wacz_version"`
		Title       string         `json:"title"`
		Description string         `json:"description"`
		Created     string         `json:"created"`
		Modified    string         `json:"modified"`
		Software    string         `json:"software"`
		Resources   []waczResource `json:"resources"`
	}{"data-package", "1.1.1", meta.title, meta.description, meta.created, meta.created, "Crossrank", []waczResource{
		data.resource("archive/data.warc"), index.resource("indexes/index.cdx"), pages.resource("pages/pages.jsonl")}}, "", "  ")
	if err != nil {
		return err
	}
	pkg, err := newWACZEntry(zw, "datapackage.json", zip.Deflate)
	if err != nil {
		return err
	}
	if _, err := pkg.Write(manifest); err != nil {
		return err
	}
	digest, err := json.MarshalIndent(struct {
		Path string `json:"path"`
		Hash string `json:"hash"`
	}{"datapackage.json", pkg.digest()}, "", "  ")
	if err != nil {
		return err
	}
	dw, err := newWACZEntry(zw, "datapackage-digest.json", zip.Deflate)
	if err != nil {
		return err
	}
	if _, err := dw.Write(digest); err != nil {
		return err
	}
	return zw.Close()
}

// copyRecord appends the record under key to data and returns its line in
// the index.
func copyRecord(ctx context.Context, data *waczEntry, copies Captures, key string) (indexLine, error) {
	rec, _, err := copies.OpenRecord(ctx, key)
	if err != nil {
		return indexLine{}, err
	}
	defer rec.Close()
	line := indexLine{offset: data.n}
	sum := sha256.New()
	out := io.MultiWriter(data, sum)
	br := bufio.NewReaderSize(rec, maxRecordHead)
	if line.head, err = readRecordHead(br); err != nil {
		return line, err
	}
	if _, err := out.Write(line.head.raw); err != nil {
		return line, err
	}
	if _, err := io.Copy(out, br); err != nil {
		return line, err
	}
	line.length = data.n - line.offset
	line.recordDigest = "sha256:" + hex.EncodeToString(sum.Sum(nil))
	return line, nil
}

// writePages writes pages/pages.jsonl: its header, then a line per
// capture kept.
func writePages(w io.Writer, title string, kept []projections.EditionCapture) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(map[string]string{"format": "json-pages-1.0", "id": "pages", "title": title}); err != nil {
		return err
	}
	for _, c := range kept {
		if err := enc.Encode(struct {
			ID  string `json:"id"`
			URL string `json:"url"`
			TS  string `json:"ts"`
		}{c.SHA256, c.URL, c.At}); err != nil {
			return err
		}
	}
	return nil
}
