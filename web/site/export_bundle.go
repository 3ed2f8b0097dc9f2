package site

import (
	"archive/zip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/crossrank/crossrank/domain/bundle"
)

// bundles writes each edition's signed bundle of a ranking at
// r/{slug}/editions/{n}/bundle, the path the server answers; one the
// replaced export holds, signed by the same key, is copied.
func (x *exporter) bundles(slug string) {
	if x.bundler == nil || x.err != nil {
		return
	}
	eds, err := x.read.Editions(x.ctx, slug, 1000)
	if err != nil {
		x.err = err
		return
	}
	for _, e := range eds {
		name := "r/" + slug + "/editions/" + strconv.Itoa(e.Number) + "/" + bundleFile
		old := filepath.Join(x.prev, filepath.FromSlash(name))
		if signedBy(old, x.bundler.Key().Kid) {
			x.stream(name, func(w io.Writer) error {
				f, err := os.Open(old)
				if err != nil {
					return err
				}
				defer f.Close()
				_, err = io.Copy(w, f)
				return err
			})
			continue
		}
		b, err := x.bundler.Prepare(x.ctx, slug, e.Number)
		if err != nil {
			x.err = err
			return
		}
		x.stream(name, func(w io.Writer) error { return b.WriteTo(x.ctx, w) })
	}
}

// signedBy reports whether path is a bundle whose manifest names the key kid.
func signedBy(path, kid string) bool {
	zr, err := zip.OpenReader(path)
	if err != nil {
		return false
	}
	defer zr.Close()
	f, err := zr.Open(bundle.ManifestFile)
	if err != nil {
		return false
	}
	defer f.Close()
	var m bundle.Manifest
	return json.NewDecoder(f).Decode(&m) == nil && m.Format == bundle.Format && m.Key.Kid == kid
}

// stream writes a file of the export from fill, which writes it a part
// at a time, as write does with a whole body.
func (x *exporter) stream(name string, fill func(io.Writer) error) {
	if x.err != nil {
		return
	}
	p := filepath.Join(x.root, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		x.err = err
		return
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		x.err = err
		return
	}
	err = fill(f)
	if err == nil {
		err = f.Sync()
	}
	n, _ := f.Seek(0, io.SeekCurrent)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	x.err = err
	x.files++
	x.bytes += n
}
