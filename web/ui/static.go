package ui

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/crossrank/crossrank/web/httpx"
)

//go:embed static
var staticFiles embed.FS

// asset is one embedded static file with its content hash.
type asset struct {
	body  []byte
	hash  string // first 16 hex digits of the SHA-256
	ctype string
}

// assets holds the embedded files by name, hashed once at start-up.
var assets = func() map[string]asset {
	out := map[string]asset{}
	sub, err := fs.Sub(staticFiles, "static")
	if err != nil {
		panic(err)
	}
	_ = fs.WalkDir(sub, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(sub, p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		ct := mime.TypeByExtension(path.Ext(p))
		if ct == "" {
			ct = "application/octet-stream"
		}
		out[p] = asset{body: b, hash: hex.EncodeToString(sum[:8]), ctype: ct}
		return nil
	})
	return out
}()

// AssetURL returns the address of a static file with its content hash, so
// it can be cached for a year and a new build is fetched at once.
func AssetURL(name string) string {
	a, ok := assets[name]
	if !ok {
		return "/static/" + name
	}
	return "/static/" + name + "?v=" + a.hash
}

// Asset returns the content of the embedded static file name (for a static
// export, which writes the files beside its pages).
func Asset(name string) ([]byte, bool) {
	a, ok := assets[name]
	return a.body, ok
}

// AssetVersions lists "name=hash" for every embedded static file, sorted by
// name: it changes whenever any asset does.
func AssetVersions() []string {
	names := make([]string, 0, len(assets))
	for n := range assets {
		names = append(names, n)
	}
	slices.Sort(names)
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = n + "=" + assets[n].hash
	}
	return out
}

// Static serves the embedded files under /static/. A request with the
// current hash is cached for a year (immutable); any other revalidates
// with the ETag. Any other path under /static/, the directory itself
// included, is the site's 404 page: no listing is ever served.
func Static() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(r.URL.Path, "/static/")
		a, ok := assets[name]
		if !ok {
			Fail(w, r, httpx.ErrNoRoute)
			return
		}
		h := w.Header()
		h.Set("Content-Type", a.ctype)
		h.Set("ETag", `"`+a.hash+`"`)
		if r.URL.Query().Get("v") == a.hash {
			h.Set("Cache-Control", "public, max-age=31536000, immutable")
		} else {
			h.Set("Cache-Control", "public, no-cache")
		}
		http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(a.body))
	})
}
