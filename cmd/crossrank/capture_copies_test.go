package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/crossrank/crossrank/cmd/crossrank/capture"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events/jetstream/jstest"
	"github.com/crossrank/crossrank/web/desk"
	"github.com/crossrank/crossrank/web/site"
	"github.com/nats-io/nats.go/jetstream"
)

// TestArchivedCopies reads a record through the site's interface from a
// real archive on the embedded NATS server.
func TestArchivedCopies(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	env := jstest.Start(t)
	nc, err := env.Server.Connect("copies-test")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	archive, err := capture.OpenArchive(ctx, js, 1)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 3, 2, 9, 30, 15, 0, time.UTC)
	rec := capture.NewRecord(&capture.Response{FinalURL: "https://example.org/prices", Date: at, Proto: "HTTP/1.1",
		Status: "200 OK", Header: http.Header{"Content-Type": {"text/html; charset=gbk"}}, Body: []byte("<p>prices</p>")})
	key, _, err := archive.Put(ctx, &rec)
	if err != nil {
		t.Fatal(err)
	}
	var copies site.Captures = archivedCopies{archive}
	got, err := copies.Open(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(got.Body)
	got.Body.Close()
	if err != nil || string(body) != "<p>prices</p>" || got.Size != int64(len(body)) || got.ContentType != "text/html; charset=gbk" ||
		!got.Fetched.Equal(at) || got.URL != "https://example.org/prices" {
		t.Errorf("got %+v, body %q, %v", got, body, err)
	}
	// The whole record, as archived, for readers to take home.
	raw, size, err := copies.OpenRecord(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := io.ReadAll(raw)
	raw.Close()
	if err != nil || int64(len(whole)) != size {
		t.Fatalf("record: %d bytes of %d, %v", len(whole), size, err)
	}
	if back, err := capture.ReadRecord(bytes.NewReader(whole)); err != nil || back.Key() != key || back.TargetURI != rec.TargetURI {
		t.Errorf("the record read back: %v", err)
	}
	for _, k := range []string{strings.Repeat("0", 64), "nope"} {
		if _, _, err := copies.OpenRecord(ctx, k); !errors.Is(err, site.ErrNoCapture) {
			t.Errorf("OpenRecord(%q): %v, want ErrNoCapture", k, err)
		}
		if _, err := copies.Open(ctx, k); !errors.Is(err, site.ErrNoCapture) || !errors.Is(err, domain.ErrNotFound) {
			t.Errorf("Get(%q): %v, want ErrNoCapture", k, err)
		}
		if _, err := (archivedCopies{archive}).Passage(ctx, k, "prices"); !errors.Is(err, domain.ErrNotFound) {
			t.Errorf("Passage(%q): %v, want not found", k, err)
		}
	}
	// The desk reads the same record's text with the quote located.
	var passages desk.Passage
	if passages, err = (archivedCopies{archive}).Passage(ctx, key, "PRICES"); err != nil {
		t.Fatal(err)
	}
	if passages.Text != "prices" || passages.Start != 0 || passages.End != 6 || !passages.Checked ||
		passages.URL != "https://example.org/prices" || !passages.Fetched.Equal(at) {
		t.Errorf("passage %+v", passages)
	}
}
