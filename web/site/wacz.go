package site

import (
	"archive/zip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"hash"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/projections"
	"github.com/crossrank/crossrank/web/ui"
)

// An edition's archive (GET /r/{slug}/editions/{n}/evidence.wacz) is a
// WACZ 1.1.1 file: the WARC records of the pages its evidence cites, as
// archived, in archive/data.warc, a list of them in pages/pages.jsonl,
// and datapackage.json with each file's size and SHA-256, for any web
// archive tool (ReplayWeb.page, py-wacz). It is written as it is sent, a
// record at a time: the digests are computed while writing, and
// datapackage.json comes last.

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
// attachment. It holds one of the capture streams: it reads the archive
// as a body does.
func (s *Site) evidenceWACZ(w http.ResponseWriter, r *http.Request) {
	n, err := strconv.Atoi(r.PathValue("n"))
	if s.captures == nil || err != nil || n < 1 {
		ui.Fail(w, r, domain.ErrNotFound)
		return
	}
	release, err := s.captureSlots.acquire(r)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	defer release()
	slug := r.PathValue("slug")
	caps, err := s.read.EditionCaptures(r.Context(), slug, n)
	if err != nil {
		ui.Fail(w, r, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/wacz")
	h.Set("Content-Disposition", `attachment; filename="`+slug+"-edition-"+strconv.Itoa(n)+`.wacz"`)
	h.Set("Cache-Control", "public, max-age=86400") // every capture listed is public: a published edition cites it
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodHead {
		return
	}
	title := slug + " edition " + strconv.Itoa(n) + ": the pages its evidence cites"
	dw := newDeadlineWriter(w)
	if err := writeWACZ(r.Context(), dw, s.captures, title, caps); err != nil {
		// The status is sent: break the connection, so the reader sees
		// a failed download and not a short file.
		s.log.Warn("wacz: writing failed", "path", r.URL.Path, "err", err)
		panic(http.ErrAbortHandler)
	}
	dw.close()
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

func (e *waczEntry) resource(name, path string) waczResource {
	return waczResource{Name: name, Path: path, Hash: "sha256:" + hex.EncodeToString(e.sum.Sum(nil)), Bytes: e.n}
}

func newWACZEntry(zw *zip.Writer, path string, method uint16) (*waczEntry, error) {
	w, err := zw.CreateHeader(&zip.FileHeader{Name: path, Method: method, Modified: time.Unix(0, 0).UTC()})
	if err != nil {
		return nil, err
	}
	return &waczEntry{w: w, sum: sha256.New()}, nil
}

// writeWACZ writes the archive of caps to w. A capture the archive no
// longer holds is left out of both the records and the pages.
func writeWACZ(ctx context.Context, w io.Writer, copies Captures, title string, caps []projections.EditionCapture) error {
	zw := zip.NewWriter(w)
	data, err := newWACZEntry(zw, "archive/data.warc", zip.Store) // the spec: archive files are stored, not deflated
	if err != nil {
		return err
	}
	kept := caps[:0:0]
	for _, c := range caps {
		rec, _, err := copies.OpenRecord(ctx, c.SHA256)
		if errors.Is(err, ErrNoCapture) {
			continue
		}
		if err != nil {
			return err
		}
		_, err = io.Copy(data, rec)
		rec.Close()
		if err != nil {
			return err
		}
		kept = append(kept, c)
	}
	pages, err := newWACZEntry(zw, "pages/pages.jsonl", zip.Deflate)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(pages)
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
	pkg, err := zw.CreateHeader(&zip.FileHeader{Name: "datapackage.json", Method: zip.Deflate, Modified: time.Unix(0, 0).UTC()})
	if err != nil {
		return err
	}
	manifest, err := json.MarshalIndent(struct {
		Profile   string         `json:"profile"`
		Version   string         `json:"wacz_version"`
		Title     string         `json:"title"`
		Software  string         `json:"software"`
		Resources []waczResource `json:"resources"`
	}{"data-package", "1.1.1", title, "Crossrank", []waczResource{
		data.resource("data.warc", "archive/data.warc"), pages.resource("pages.jsonl", "pages/pages.jsonl")}}, "", "  ")
	if err != nil {
		return err
	}
	if _, err := pkg.Write(manifest); err != nil {
		return err
	}
	return zw.Close()
}
