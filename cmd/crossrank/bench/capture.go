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
	"sync"
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
	rate, raw   float64 // captures/s through the capture path; raw GET + Put/s
	rateN, rawN float64 // the same, capture.DefaultWorkers at once
	hwm         float64 // MiB: this process's VmHWM after the capture passes
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
// the capture worker's path — Fetcher (address checks, limits), then
// capture.Keep (WARC record, Archive.Put into the Object Store, compressed,
// SyncAlways, with QuoteFound alongside) — one after another, then as many
// again capture.DefaultWorkers at once, as the worker's pool runs them;
// then the raw reference in the same run, the same two ways: http.Get of
// the same pages and an Object Store Put of the same bytes into a bucket
// configured like the archive.
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
	one := func(i int) error {
		resp, err := f.Fetch(ctx, fmt.Sprintf("%s/%d", srv.URL, i))
		if err != nil {
			return err
		}
		kept, err := capture.Keep(ctx, archive, resp, captureQuote)
		if err != nil || !kept.Stored {
			return fmt.Errorf("archive page %d: stored %v, %v", i, kept.Stored, err)
		}
		if !kept.Found {
			return fmt.Errorf("page %d: quote not found", i)
		}
		return nil
	}
	if res.rate, err = pagesPerSecond(0, 1, one); err != nil {
		return res, err
	}
	if res.rateN, err = pagesPerSecond(capturePages, capture.DefaultWorkers, one); err != nil {
		return res, err
	}
	res.hwm = float64(vmHWM("/proc/self/status")) / 1024

	obs, err := js.CreateObjectStore(ctx, njs.ObjectStoreConfig{Bucket: "BENCH_RAW_PAGES", Storage: njs.FileStorage,
		Replicas: 1, Compression: true})
	if err != nil {
		return res, err
	}
	raw := func(i int) error {
		resp, err := http.Get(fmt.Sprintf("%s/%d", srv.URL, i))
		if err != nil {
			return err
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return err
		}
		_, err = obs.PutBytes(ctx, strconv.Itoa(i), body)
		return err
	}
	if res.raw, err = pagesPerSecond(0, 1, raw); err != nil {
		return res, fmt.Errorf("raw reference: %w", err)
	}
	if res.rawN, err = pagesPerSecond(capturePages, capture.DefaultWorkers, raw); err != nil {
		return res, fmt.Errorf("raw reference: %w", err)
	}
	o.logf("  %d captures of %d KiB pages: %.1f/s; raw GET + Put %.1f/s; %d at once: %.1f/s, raw %.1f/s; VmHWM %.0f MiB",
		capturePages, capturePageSize>>10, res.rate, res.raw, capture.DefaultWorkers, res.rateN, res.rawN, res.hwm)
	return res, nil
}

// pagesPerSecond runs do for pages from, from+1, … (capturePages of them)
// in n goroutines and returns pages/s, or the first error.
func pagesPerSecond(from, n int, do func(i int) error) (float64, error) {
	next := make(chan int)
	errs := make(chan error, n)
	var wg sync.WaitGroup
	start := time.Now()
	for range n {
		wg.Go(func() {
			for i := range next {
				if err := do(i); err != nil {
					errs <- err
					for range next {
					}
					return
				}
			}
		})
	}
	for i := from; i < from+capturePages; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
	elapsed := time.Since(start)
	select {
	case err := <-errs:
		return 0, err
	default:
	}
	return capturePages / elapsed.Seconds(), nil
}

// captureRows adds the capture figures to the report's table.
func captureRows(t *table, rs []captureResult) {
	if len(rs) == 0 {
		return
	}
	get := func(f func(captureResult) float64) series { return collect(rs, f) }
	rate, raw := get(func(x captureResult) float64 { return x.rate }), get(func(x captureResult) float64 { return x.raw })
	ratio := get(func(x captureResult) float64 { return x.rate / x.raw })
	t.add(fmt.Sprintf("captures/s of %d different %d KiB HTML pages from a local server, one at a time (Fetcher, then capture.Keep: WARC record, Archive.Put, QuoteFound alongside)",
		capturePages, capturePageSize>>10), rate.show(fmtRate), "http.Get + Object Store Put of the same bytes: "+raw.show(fmtRate),
		ratio.show(fmtRatio), "≥ 0.5 of raw", verdict(ratio.median() >= 0.5))
	rateN, rawN := get(func(x captureResult) float64 { return x.rateN }), get(func(x captureResult) float64 { return x.rawN })
	ratioN := get(func(x captureResult) float64 { return x.rateN / x.rawN })
	t.add(fmt.Sprintf("the same, %d more pages %d at once (the worker pool's default Workers)", capturePages, capture.DefaultWorkers),
		rateN.show(fmtRate), fmt.Sprintf("http.Get + Put, %d at once: %s", capture.DefaultWorkers, rawN.show(fmtRate)),
		ratioN.show(fmtRatio), "", "")
	hwm := get(func(x captureResult) float64 { return x.hwm })
	t.add("peak memory after those captures: this process's VmHWM (/proc/self/status), embedded nats-server and page server included",
		hwm.show(fmtMiB), "—", "", "", "")
}
