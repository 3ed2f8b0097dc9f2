package capture_test

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/crossrank/crossrank/cmd/crossrank/capture"
	"github.com/crossrank/crossrank/events/jetstream/jstest"
	"github.com/nats-io/nats.go/jetstream"
)

func openArchive(t *testing.T, env *jstest.Env) (*capture.Archive, jetstream.JetStream) {
	t.Helper()
	nc, err := env.Server.Connect("capture-test")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	a, err := capture.OpenArchive(context.Background(), js, 1)
	if err != nil {
		t.Fatal(err)
	}
	return a, js
}

func record(target, body string) *capture.Record {
	r := capture.NewRecord(&capture.Response{
		FinalURL: target, Date: time.Now(), Proto: "HTTP/1.1", Status: "200 OK",
		Header: http.Header{"Content-Type": {"text/html; charset=utf-8"}}, Body: []byte(body),
	})
	return &r
}

// TestArchive stores a capture fetched from a live server in the real
// embedded JetStream, reads it back, and checks a second Put of the same
// body stores nothing.
func TestArchive(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	env := jstest.Start(t)
	a, js := openArchive(t, env)

	s := serve(t, page("<p>价格应以<b>实时</b>库存为准</p>"))
	resp, err := fetch(t, &capture.Fetcher{Allow: loopback}, s.URL)
	if err != nil {
		t.Fatal(err)
	}
	rec := capture.NewRecord(resp)
	key, stored, err := a.Put(ctx, &rec)
	if err != nil || !stored || key != rec.Key() {
		t.Fatalf("Put = %s, %v, %v; want %s, true", key, stored, err, rec.Key())
	}
	got, err := a.Get(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := rec.MarshalBinary()
	if raw, _ := got.MarshalBinary(); !bytes.Equal(raw, want) {
		t.Errorf("Get returned a different record:\n%s\n---\n%s", raw, want)
	}
	if found, checked := capture.QuoteFound(got.Body, got.Header.Get("Content-Type"), "应以实时库存为准"); !found || !checked {
		t.Error("the quote is not found in the archived capture")
	}

	// The same body again, captured later from another URL: kept once,
	// the first record wins.
	again := record("https://mirror.example/page", string(rec.Body))
	if k, stored, err := a.Put(ctx, again); err != nil || stored || k != key {
		t.Errorf("second Put = %s, %v, %v; want %s, false", k, stored, err, key)
	}
	if got, _ := a.Get(ctx, key); got == nil || got.ID != rec.ID {
		t.Error("the second Put replaced the first record")
	}

	other := record("https://example.org/b", "<p>other</p>")
	if _, stored, err := a.Put(ctx, other); err != nil || !stored {
		t.Errorf("a different body: stored %v, %v", stored, err)
	}

	obs, err := js.ObjectStore(ctx, capture.Bucket)
	if err != nil {
		t.Fatal(err)
	}
	list, err := obs.List(ctx)
	if err != nil || len(list) != 2 {
		t.Errorf("bucket holds %d objects (%v), want 2", len(list), err)
	}
	st, err := obs.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Storage() != jetstream.FileStorage || st.Replicas() != 1 || !st.IsCompressed() {
		t.Errorf("bucket: storage %v, replicas %d, compressed %v", st.Storage(), st.Replicas(), st.IsCompressed())
	}
}

func TestArchiveGetMissing(t *testing.T) {
	t.Parallel()
	a, _ := openArchive(t, jstest.Start(t))
	for _, key := range []string{
		strings.Repeat("ab", 32), // well formed, absent
		"../etc/passwd",
		strings.Repeat("AB", 32), // keys are lower case
		"",
	} {
		if _, err := a.Get(context.Background(), key); !errors.Is(err, capture.ErrNotFound) {
			t.Errorf("Get(%q) = %v, want ErrNotFound", key, err)
		}
	}
}

// TestArchiveSurvivesRestart reopens the bucket on a restarted server
// over the same directory: file storage keeps the captures.
func TestArchiveSurvivesRestart(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	env := jstest.StartIn(t, dir)
	a, _ := openArchive(t, env)
	rec := record("https://example.org/", "<p>kept</p>")
	key, _, err := a.Put(ctx, rec)
	if err != nil {
		t.Fatal(err)
	}
	env.Server.Shutdown()

	a, _ = openArchive(t, jstest.StartIn(t, dir))
	got, err := a.Get(ctx, key)
	if err != nil || string(got.Body) != "<p>kept</p>" {
		t.Fatalf("after restart: %v", err)
	}
}

// TestArchiveStreamsLargeRecord stores a record of several chunks, which
// Put streams from its parts, and checks the stored object is the record
// byte for byte, in whole chunks (one short chunk at the end at most).
func TestArchiveStreamsLargeRecord(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	env := jstest.Start(t)
	a, js := openArchive(t, env)
	rec := record("https://example.org/large", "<p>"+strings.Repeat("价格应以实时库存为准 ", 40<<10)+"</p>")
	key, stored, err := a.Put(ctx, rec)
	if err != nil || !stored {
		t.Fatalf("Put: stored %v, %v", stored, err)
	}
	obs, err := js.ObjectStore(ctx, capture.Bucket)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := obs.GetBytes(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := rec.MarshalBinary(); !bytes.Equal(raw, want) {
		t.Fatalf("stored %d bytes that differ from the record's %d", len(raw), len(want))
	}
	info, err := obs.GetInfo(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	chunk := uint64(info.Opts.ChunkSize)
	if chunk == 0 {
		chunk = 128 << 10 // the Object Store's default
	}
	if want := (info.Size + chunk - 1) / chunk; uint64(info.Chunks) != want || want < 3 {
		t.Errorf("%d bytes in %d chunks; want %d whole chunks", info.Size, info.Chunks, want)
	}
}
