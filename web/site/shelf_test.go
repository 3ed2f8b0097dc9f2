package site_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"sync"
	"time"

	"github.com/crossrank/crossrank/web/site"
)

// shelf is an archive of captures in memory: body by hex SHA-256, the
// body standing in for the WARC record too. A held shelf's bodies wait
// for release before their first byte, so the requests reading them keep
// their place among the bodies being sent.
type shelf struct {
	mu      sync.Mutex
	bodies  map[string][]byte
	held    bool
	reading chan struct{} // a held body's first read has begun
	release chan struct{}
}

func newShelf(held bool) *shelf {
	return &shelf{bodies: map[string][]byte{}, held: held, reading: make(chan struct{}, 1024), release: make(chan struct{})}
}

// put keeps body and returns its key.
func (s *shelf) put(body string) string {
	sum := sha256.Sum256([]byte(body))
	key := hex.EncodeToString(sum[:])
	s.mu.Lock()
	defer s.mu.Unlock()
	s.bodies[key] = []byte(body)
	return key
}

func (s *shelf) get(key string) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.bodies[key]
	if !ok {
		return nil, site.ErrNoCapture
	}
	return b, nil
}

func (s *shelf) body(b []byte) io.ReadCloser {
	if !s.held {
		return io.NopCloser(bytes.NewReader(b))
	}
	return &heldBody{Reader: bytes.NewReader(b), s: s}
}

func (s *shelf) Open(_ context.Context, key string) (*site.Capture, error) {
	b, err := s.get(key)
	if err != nil {
		return nil, err
	}
	return &site.Capture{Body: s.body(b), Size: int64(len(b)), ContentType: "text/html; charset=utf-8",
		Fetched: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC), URL: "https://example.com/report"}, nil
}

func (s *shelf) OpenRecord(_ context.Context, key string) (io.ReadCloser, int64, error) {
	b, err := s.get(key)
	if err != nil {
		return nil, 0, err
	}
	return s.body(b), int64(len(b)), nil
}

type heldBody struct {
	io.Reader
	s    *shelf
	once sync.Once
}

func (b *heldBody) Read(p []byte) (int, error) {
	b.once.Do(func() { b.s.reading <- struct{}{}; <-b.s.release })
	return b.Reader.Read(p)
}

func (b *heldBody) Close() error { return nil }
