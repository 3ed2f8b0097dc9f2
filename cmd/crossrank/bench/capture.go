package bench

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/crossrank/crossrank/cmd/crossrank/capture"
	"github.com/crossrank/crossrank/events/jetstream"
	njs "github.com/nats-io/nats.go/jetstream"
)

// Sizes of the capture figures: pages as large as a heavy vendor pricing
// page, each different, so that the archive stores every one.
const (
	capturePages    = 200
	capturePageSize = 1 << 20
	captureQuote    = "RTX 4090 每小时 1.98 元"
)

// captureResult is one run of the capture figures.
type captureResult struct {
	rate, raw float64 // captures/s through the capture path; raw GET + Put/s
	hwm       float64 // MiB: this process's VmHWM after the capture pass
}

// capturePage returns page i: about 1 MiB of HTML paragraphs, the quote
// near the end, and the page's number, so no two bodies are the same.
func capturePage(i int) []byte {
	var b bytes.Buffer
	b.Grow(capturePageSize + 256)
	fmt.Fprintf(&b, "<!doctype html><html><head><meta charset=utf-8><title>page %d</title></head><body>", i)
	para := "<p>GPU 云服务器按量计费，包年包月更优惠；A100、H100、RTX 4090 可选，存储与网络另计。 page " + strconv.Itoa(i) + "</p>\n"
	for b.Len() < capturePageSize-len(para)-64 {
		b.WriteString(para)
	}
	b.WriteString("<p>" + captureQuote + "</p></body></html>")
	return b.Bytes()
}

// measureCapture captures capturePages pages from a local server through
// the capture worker's path — Fetcher (address checks, limits), NewRecord
// (WARC), Archive.Put (Object Store, compressed, SyncAlways), QuoteFound —
// one after another as the worker does, then the raw reference in the
// same run: http.Get of the same pages and an Object Store Put of the same
// bytes into a bucket configured like the archive.
func measureCapture(ctx context.Context, o *options, run int) (captureResult, error) {
	var res captureResult
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i, _ := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/"))
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(capturePage(i))
	}))
	defer srv.Close()
	emb, err := jetstream.StartEmbedded(jetstream.EmbeddedOptions{Dir: filepath.Join(o.scratch, fmt.Sprintf("capture-%d", run))})
	if err != nil {
		return res, err
	}
	defer emb.Shutdown()
	nc, err := emb.Connect("crossrank-bench-capture")
	if err != nil {
		return res, err
	}
	defer nc.Close()
	js, err := njs.New(nc)
	if err != nil {
		return res, err
	}
	archive, err := capture.OpenArchive(ctx, js, 1)
	if err != nil {
		return res, err
	}
	f := &capture.Fetcher{Allow: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}}
	start := time.Now()
	for i := range capturePages {
		resp, err := f.Fetch(ctx, fmt.Sprintf("%s/%d", srv.URL, i))
		if err != nil {
			return res, err
		}
		rec := capture.NewRecord(resp)
		if _, stored, err := archive.Put(ctx, &rec); err != nil || !stored {
			return res, fmt.Errorf("archive page %d: stored %v, %v", i, stored, err)
		}
		if found, _ := capture.QuoteFound(resp.Body, resp.ContentType(), captureQuote); !found {
			return res, fmt.Errorf("page %d: quote not found", i)
		}
	}
	res.rate = capturePages / time.Since(start).Seconds()
	res.hwm = float64(vmHWM("/proc/self/status")) / 1024

	raw, err := rawCaptures(ctx, js, srv.URL)
	if err != nil {
		return res, fmt.Errorf("raw reference: %w", err)
	}
	res.raw = raw
	o.logf("  %d captures of %d KiB pages: %.1f/s; raw GET + Put %.1f/s; VmHWM %.0f MiB",
		capturePages, capturePageSize>>10, res.rate, res.raw, res.hwm)
	return res, nil
}

// rawCaptures GETs the same pages with a plain client and Puts their bytes
// in an Object Store bucket like the archive's; it returns pages/s.
func rawCaptures(ctx context.Context, js njs.JetStream, base string) (float64, error) {
	obs, err := js.CreateObjectStore(ctx, njs.ObjectStoreConfig{Bucket: "BENCH_RAW_PAGES", Storage: njs.FileStorage,
		Replicas: 1, Compression: true})
	if err != nil {
		return 0, err
	}
	start := time.Now()
	for i := range capturePages {
		resp, err := http.Get(fmt.Sprintf("%s/%d", base, i))
		if err != nil {
			return 0, err
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return 0, err
		}
		if _, err := obs.PutBytes(ctx, strconv.Itoa(i), body); err != nil {
			return 0, err
		}
	}
	return capturePages / time.Since(start).Seconds(), nil
}
