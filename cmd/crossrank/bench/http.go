package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// httpResult is one target under load.
type httpResult struct {
	rps      float64
	p50, p99 time.Duration
	bytes    int64 // body size of one response
	sent     int64 // the same as sent to a client that accepts gzip
	timeouts int64 // requests not answered within the client's timeout
	refused  int64 // requests answered other than 200 under load (closed loop)
	total    int64 // every request sent, the warm-up's and the two first included
}

// statusError is an answer other than 200.
type statusError struct{ msg string }

func (e *statusError) Error() string { return e.msg }

// httpTimeout bounds one request under load.
const httpTimeout = 30 * time.Second

// loadURL sends GET url from o.clients clients in a closed loop (each
// sends its next request when the last one's body is read) over keep-alive
// connections, accepting gzip as browsers do: a warm-up (o.warmup), then
// o.duration measured. Every response must be 200. With a token, every
// request carries it as a bearer token (a signed-in user's pages).
func loadURL(ctx context.Context, o *options, url, token string) (httpResult, error) {
	var res httpResult
	client := &http.Client{Transport: transport(o.clients), Timeout: httpTimeout}
	defer client.CloseIdleConnections()
	get := func(gzip bool) (int64, error) {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		req.Header.Set("Accept-Language", "en")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		if gzip {
			// As a browser asks; the body is read as sent, not decompressed.
			req.Header.Set("Accept-Encoding", "gzip")
		}
		resp, err := client.Do(req)
		if err != nil {
			return 0, err
		}
		n, err := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if err == nil && resp.StatusCode != http.StatusOK {
			err = &statusError{fmt.Sprintf("GET %s: %s", url, resp.Status)}
		}
		return n, err
	}
	size, err := get(false)
	if err != nil {
		return res, err
	}
	res.bytes = size
	if res.sent, err = get(true); err != nil {
		return res, err
	}
	// Every client records when each request ended and how long it took;
	// the requests that ended inside the measured window count, as a load
	// generator like wrk counts them.
	type sample struct {
		end              time.Time
		took             time.Duration
		timeout, refused bool
	}
	var failed atomic.Pointer[error]
	stop := make(chan struct{})
	samples := make([][]sample, o.clients)
	var wg sync.WaitGroup
	for c := range o.clients {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				start := time.Now()
				_, err := get(true)
				var refused *statusError
				if err != nil && !errors.As(err, &refused) && ctx.Err() == nil && !errors.Is(err, context.DeadlineExceeded) && !os.IsTimeout(err) {
					failed.CompareAndSwap(nil, &err)
					return
				}
				// A request that timed out, or was answered other than
				// 200 (a server shedding load), counts with the time it
				// took.
				end := time.Now()
				samples[c] = append(samples[c], sample{end, end.Sub(start), err != nil && refused == nil, refused != nil})
			}
		})
	}
	time.Sleep(o.warmup) // connections open, caches filled
	begin := time.Now()
	time.Sleep(o.duration)
	finish := time.Now()
	close(stop)
	wg.Wait()
	if e := failed.Load(); e != nil {
		return res, *e
	}
	// Latencies count every request that ended after the warm-up, those
	// still under way when the window closed too (each was sent inside
	// it): a page slower than the window still shows how slow it is.
	var all []time.Duration
	var answered int
	res.total = 2
	for _, l := range samples {
		res.total += int64(len(l))
		for _, x := range l {
			if x.end.After(begin) {
				all = append(all, x.took)
				switch {
				case x.timeout:
					res.timeouts++
				case x.refused:
					res.refused++
				case !x.end.After(finish):
					answered++
				}
			}
		}
	}
	res.rps = float64(answered) / finish.Sub(begin).Seconds()
	res.p50, res.p99 = percentile(all, 0.5), percentile(all, 0.99)
	return res, nil
}

// loadURLRate sends GET url at a fixed rate (an open loop: requests are
// due on a schedule, whether or not earlier ones have been answered) for
// o.duration after a second of warm-up, over keep-alive connections,
// accepting gzip. Each latency counts from when the request was due, not
// when a free client sent it, so a server that falls behind is charged for
// the wait (no coordinated omission). This is the latency a reader sees at
// that load; the closed loop of loadURL measures the most the server does
// with every client always waiting, where latency is mostly queueing.
func loadURLRate(ctx context.Context, o *options, url string, rate int) (httpResult, error) {
	var res httpResult
	const senders = 256 // enough that a sender is free when a request is due
	client := &http.Client{Transport: transport(senders), Timeout: httpTimeout}
	defer client.CloseIdleConnections()
	interval := time.Second / time.Duration(rate)
	warm := time.Second
	total := int64((warm + o.duration) / interval)
	t0 := time.Now().Add(10 * time.Millisecond)
	var next atomic.Int64
	var failed atomic.Pointer[error]
	type sample struct {
		due     time.Time
		took    time.Duration
		timeout bool
	}
	samples := make([][]sample, senders)
	var wg sync.WaitGroup
	for c := range senders {
		wg.Go(func() {
			for {
				i := next.Add(1) - 1
				if i >= total || failed.Load() != nil || ctx.Err() != nil {
					return
				}
				due := t0.Add(time.Duration(i) * interval)
				time.Sleep(time.Until(due))
				req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
				req.Header.Set("Accept-Language", "en")
				req.Header.Set("Accept-Encoding", "gzip")
				resp, err := client.Do(req)
				if err == nil {
					_, err = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					if err == nil && resp.StatusCode != http.StatusOK {
						err = fmt.Errorf("GET %s: %s", url, resp.Status)
					}
				}
				if err != nil && ctx.Err() == nil && !errors.Is(err, context.DeadlineExceeded) && !os.IsTimeout(err) {
					failed.CompareAndSwap(nil, &err)
					return
				}
				samples[c] = append(samples[c], sample{due, time.Since(due), err != nil})
			}
		})
	}
	wg.Wait()
	if e := failed.Load(); e != nil {
		return res, *e
	}
	begin := t0.Add(warm)
	var all []time.Duration
	for _, l := range samples {
		for _, x := range l {
			if !x.due.Before(begin) {
				all = append(all, x.took)
				if x.timeout {
					res.timeouts++
				}
			}
		}
	}
	res.rps = float64(rate)
	res.p50, res.p99 = percentile(all, 0.5), percentile(all, 0.99)
	return res, nil
}
