package web

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/web/site"
)

// TestCaptureOfDraftStaysOnDesk: a capture cited only by a draft is no
// public page, frame or download (404 as if there were none); a signed-in
// desk user reads all three, and nothing keeps them in a shared cache.
func TestCaptureOfDraftStaysOnDesk(t *testing.T) {
	t.Parallel()
	e := newDemoEnv(t)
	copies := shelf{}
	srv, err := New(Config{Commands: e.cmd, Read: e.read, SessionKeys: [][]byte{bytes.Repeat([]byte("k"), 32)}, Captures: copies})
	if err != nil {
		t.Fatal(err)
	}
	e.srv = srv
	page := "<p>draft source</p>"
	sha := copies.put(page, "text/html; charset=utf-8", "https://example.org/draft", fetched)
	editor := domain.Actor{Name: "editor", Roles: []string{domain.RoleEditor}}
	before, err := e.cmd.Proposal(e.ctx, demoDraft)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.cmd.AddEvidence(e.ctx, editor, domain.AddEvidence{CommandID: "draft-capture-ev", Proposal: demoDraft,
		Claim: "Draft", SourceURL: "https://example.org/draft", Excerpt: "draft source", ObservedOn: "2026-03-01"}); err != nil {
		t.Fatal(err)
	}
	e.recordCapture(domain.RecordCapture{Proposal: demoDraft, Evidence: nextEvidence(before.EvidenceSeq + 1),
		FinalURL: "https://example.org/draft", Status: 200, ContentType: "text/html; charset=utf-8", Size: int64(len(page)),
		SHA256: sha, QuoteFound: true, QuoteChecked: true})

	paths := []string{"/captures/" + sha, "/captures/" + sha + "/raw", "/captures/" + sha + "/download", "/captures/" + sha + ".warc"}
	anonymous := e.client("")
	for _, p := range paths {
		if res, body := anonymous.do(http.MethodGet, p, nil, nil); res.StatusCode != http.StatusNotFound || strings.Contains(body, "draft source") {
			t.Errorf("signed out GET %s: %d, want 404", p, res.StatusCode)
		}
	}
	reviewer := e.client("reviewer1")
	for _, p := range paths {
		res, body := reviewer.do(http.MethodGet, p, nil, nil)
		if res.StatusCode != http.StatusOK || !strings.Contains(res.Header.Get("Cache-Control"), "no-store") {
			t.Errorf("signed in GET %s: %d %q, want 200 kept by no cache", p, res.StatusCode, res.Header.Get("Cache-Control"))
		}
		if strings.HasSuffix(p, "/raw") && body != page {
			t.Errorf("signed in GET %s: %q", p, body)
		}
	}
}

// blockingShelf is a shelf whose bodies are read only once released: the
// requests reading them hold their place among the bodies being sent.
type blockingShelf struct {
	shelf
	reading chan struct{} // a body's first read has begun
	release chan struct{}
}

type blockedBody struct {
	io.Reader
	s    *blockingShelf
	once sync.Once
}

func (b *blockedBody) Read(p []byte) (int, error) {
	b.once.Do(func() { b.s.reading <- struct{}{}; <-b.s.release })
	return b.Reader.Read(p)
}

func (b *blockedBody) Close() error { return nil }

func (s *blockingShelf) Open(ctx context.Context, key string) (*site.Capture, error) {
	c, err := s.shelf.Open(ctx, key)
	if err != nil {
		return nil, err
	}
	c.Body = &blockedBody{Reader: c.Body, s: s}
	return c, nil
}

// TestCaptureStreamsBounded: one client address holds at most
// CaptureStreamsPerClient bodies being sent (one more is refused with 429
// and Retry-After), and while DefaultCaptureStreams are being sent to all
// clients, one more is refused with 503 and Retry-After; the site's own
// page about the copy still answers; once they end, bodies are sent again.
// Twenty slow readers from one address held all 16 before (issue 41 item 4).
func TestCaptureStreamsBounded(t *testing.T) {
	t.Parallel()
	copies := &blockingShelf{shelf: shelf{}, reading: make(chan struct{}), release: make(chan struct{})}
	key := copies.put("<p>RTX 4090</p>", "text/html", "https://example.org/ppio", fetched)
	e := newSiteEnvWith(t, func(c *Config) { c.Captures = copies })
	e.publishCapture("ppio", "gpu-coverage", key, "text/html", "https://example.org/ppio")

	get := func(addr string) *httptest.ResponseRecorder {
		w := httptest.NewRecorder()
		r := httptest.NewRequest(http.MethodGet, "/captures/"+key+"/raw", nil)
		r.RemoteAddr = addr + ":1234"
		e.srv.Handler().ServeHTTP(w, r)
		return w
	}
	var wg sync.WaitGroup
	hold := func(addr string) {
		wg.Go(func() {
			if w := get(addr); w.Code != http.StatusOK {
				t.Errorf("a held body for %s: %d", addr, w.Code)
			}
		})
		<-copies.reading
	}
	for range site.CaptureStreamsPerClient {
		hold("192.0.2.1")
	}
	if w := get("192.0.2.1"); w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") != "1" {
		t.Errorf("one body too many for one client: %d, Retry-After %q; want 429 and 1", w.Code, w.Header().Get("Retry-After"))
	}
	for i := site.CaptureStreamsPerClient; i < site.DefaultCaptureStreams; i++ {
		hold(fmt.Sprintf("198.51.100.%d", i))
	}
	if w := get("203.0.113.9"); w.Code != http.StatusServiceUnavailable || w.Header().Get("Retry-After") != "1" {
		t.Errorf("one body too many in all: %d, Retry-After %q; want 503 and 1", w.Code, w.Header().Get("Retry-After"))
	}
	if res, _ := e.get("/captures/" + key); res.StatusCode != http.StatusOK {
		t.Errorf("the page about the copy while bodies are held: %d", res.StatusCode)
	}
	close(copies.release)
	wg.Wait()
	go func() {
		for range copies.reading {
		}
	}()
	if w := get("192.0.2.1"); w.Code != http.StatusOK || w.Body.String() != "<p>RTX 4090</p>" {
		t.Errorf("after the others ended: %d %q", w.Code, w.Body.String())
	}
}
