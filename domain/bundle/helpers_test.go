package bundle_test

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/ed25519"
	"io"
	"testing"
	"time"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/bundle"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events"
)

var publisher = domain.Actor{Name: "publisher", Roles: []string{domain.RolePublisher}}

func testContext(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// newKey returns a signing key drawn from seed.
func newKey(seed byte) ed25519.PrivateKey {
	return ed25519.NewKeyFromSeed(bytes.Repeat([]byte{seed}, ed25519.SeedSize))
}

// publishAll previews and publishes ids as the ranking's next edition.
func publishAll(t *testing.T, h *handler.Handler, slug string, ids []string) {
	t.Helper()
	ctx := testContext(t)
	pv, _, err := h.PreviewEdition(ctx, slug, ids)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.Publish(ctx, publisher, domain.PublishEdition{Ranking: slug, Proposals: ids, PreviewHash: pv.Hash}); err != nil {
		t.Fatal(err)
	}
}

// write returns edition n's bundle.
func write(t *testing.T, store events.Store, key ed25519.PrivateKey, slug string, n int) []byte {
	t.Helper()
	ctx := testContext(t)
	b, err := bundle.NewProducer(store, key).Prepare(ctx, slug, n)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := b.WriteTo(ctx, &buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func verify(b []byte, o bundle.Options) (bundle.Report, error) {
	return bundle.Verify(bytes.NewReader(b), int64(len(b)), o)
}

// rewrite returns a copy of the bundle z with each file's body passed
// through edit (nil: the file is left out), in the same order.
func rewrite(t *testing.T, z []byte, edit func(name string, body []byte) []byte) []byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(z), int64(len(z)))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		if body = edit(f.Name, body); body == nil {
			continue
		}
		w, err := zw.Create(f.Name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(body)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// read returns one file of the bundle z.
func read(t *testing.T, z []byte, name string) []byte {
	t.Helper()
	var got []byte
	rewrite(t, z, func(n string, body []byte) []byte {
		if n == name {
			got = body
		}
		return body
	})
	return got
}

// failed returns the names of the checks the report says failed.
func failed(r bundle.Report) []string {
	var out []string
	for _, c := range r.Checks {
		if !c.OK {
			out = append(out, c.Name)
		}
	}
	return out
}

func detail(r bundle.Report, name string) string {
	for _, c := range r.Checks {
		if c.Name == name {
			return c.Detail
		}
	}
	return ""
}
