package webtest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"time"

	"github.com/crossrank/crossrank/cmd/crossrank/capture"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/web/site"
)

// Shelf is an archive in memory: site.Captures is the site's own small
// interface, and the real archive's adapter lives in cmd/crossrank.
type Shelf map[string]Shelved

// Shelved is one capture on the shelf.
type Shelved struct {
	Body        []byte
	ContentType string
	Fetched     time.Time
	URL         string
	Record      []byte // the WARC record the capture worker would have archived
}

// Get returns the capture under key, or site.ErrNoCapture.
func (s Shelf) Get(_ context.Context, key string) (Shelved, error) {
	c, ok := s[key]
	if !ok {
		return Shelved{}, site.ErrNoCapture
	}
	return c, nil
}

// Open opens the capture's body.
func (s Shelf) Open(ctx context.Context, key string) (*site.Capture, error) {
	c, err := s.Get(ctx, key)
	if err != nil {
		return nil, err
	}
	return &site.Capture{Body: io.NopCloser(bytes.NewReader(c.Body)), Size: int64(len(c.Body)), ContentType: c.ContentType,
		Fetched: c.Fetched, URL: c.URL}, nil
}

// OpenRecord opens the capture's WARC record.
func (s Shelf) OpenRecord(ctx context.Context, key string) (io.ReadCloser, int64, error) {
	c, err := s.Get(ctx, key)
	if err != nil {
		return nil, 0, err
	}
	return io.NopCloser(bytes.NewReader(c.Record)), int64(len(c.Record)), nil
}

// Put shelves body, with its WARC record as the capture package writes
// it, and returns its key.
func (s Shelf) Put(body, contentType, url string, fetched time.Time) string {
	sum := sha256.Sum256([]byte(body))
	key := hex.EncodeToString(sum[:])
	rec := capture.NewRecord(&capture.Response{FinalURL: url, Date: fetched, Proto: "HTTP/1.1", Status: "200 OK",
		Header: http.Header{"Content-Type": {contentType}}, Body: []byte(body)})
	b, err := rec.MarshalBinary()
	if err != nil {
		panic(err)
	}
	s[key] = Shelved{Body: []byte(body), ContentType: contentType, Fetched: fetched, URL: url, Record: b}
	return key
}

// Fetched is when the shelved test captures were fetched.
var Fetched = time.Date(2026, 3, 2, 9, 30, 15, 0, time.UTC)

// PublishCapture has a published edition cite the capture under key: a
// proposal for entry's criterion, cross-validated, published, then its
// evidence captured.
func (e *SiteEnv) PublishCapture(entry, criterion, key, contentType, url string) {
	e.T.Helper()
	id := e.CrossValidate(entry, criterion, 4, domain.AddEvidence{Claim: events.Text{En: "A page"}, SourceURL: url, Excerpt: "RTX 4090",
		ObservedOn: "2026-03-01"})
	e.Publish(id)
	res, err := e.Cmd.RecordCapture(e.Ctx, domain.Worker(), domain.RecordCapture{CommandID: id + "-capture", Proposal: id,
		Evidence: "e1", At: Fetched, FinalURL: url, Status: 200, ContentType: contentType, Size: 10, SHA256: key, QuoteChecked: true})
	if err != nil {
		e.T.Fatal(err)
	}
	if err := e.Read.WaitFor(e.Ctx, res.Sequence); err != nil {
		e.T.Fatal(err)
	}
}
