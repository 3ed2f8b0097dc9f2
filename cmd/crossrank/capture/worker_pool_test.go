package capture_test

import (
	"context"
	"net"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/crossrank/crossrank/cmd/crossrank/capture"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	crjs "github.com/crossrank/crossrank/events/jetstream"
	"github.com/nats-io/nats.go/jetstream"
)

// TestWorkerSlowHostDelaysNoOther cites three pages of a host that drips
// its answer until the test lets it finish, then a page of another host:
// that page is captured while the slow ones are still in flight, the slow
// host never has more than two fetches at once (the third item goes back
// to the stream), and each item is recorded once in the end.
func TestWorkerSlowHostDelaysNoOther(t *testing.T) {
	t.Parallel()
	d := newDesk(t)
	release := make(chan struct{})
	var inflight, most atomic.Int64
	slow := serve(t, func(w http.ResponseWriter, r *http.Request) {
		n := inflight.Add(1)
		defer inflight.Add(-1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte("<p>"))
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
		}
		w.Write([]byte(quote + "</p>"))
	})
	normal := serve(t, page("<p>"+quote+"</p>"))
	d.worker(capture.WorkerConfig{Fetcher: &capture.Fetcher{Allow: loopback, Timeout: 2 * time.Minute},
		Workers: 4, PerHost: 2})
	slowIDs := []string{d.cite(slow.URL + "/a"), d.cite(slow.URL + "/b"), d.cite(slow.URL + "/c")}
	// Another host name for the same test server machine: localhost.
	other := d.cite("http://localhost:" + port(normal) + "/")

	d.await(other)
	got := d.results()
	for _, id := range slowIDs {
		if len(got[id]) != 0 {
			t.Fatalf("%s recorded before the slow host answered: %v", id, got[id])
		}
	}
	if inflight.Load() == 0 {
		t.Fatal("no fetch from the slow host in flight when the other page was recorded")
	}
	// The third slow item is put back while two are in flight: wait until
	// the stream has offered it again, then check it was not fetched.
	awaitRedelivery(t, d)
	if n := slow.hits.Load(); n != 2 {
		t.Errorf("the slow host got %d requests while two were in flight, want 2", n)
	}

	close(release)
	got = d.await(slowIDs...)
	for _, id := range append(slowIDs, other) {
		if c, ok := got[id][0].(*events.EvidenceCaptured); len(got[id]) != 1 || !ok || !c.QuoteFound {
			t.Errorf("%s: results %v, want one capture with the quote", id, got[id])
		}
	}
	if m := most.Load(); m > 2 {
		t.Errorf("the slow host had %d fetches at once, want at most 2", m)
	}
}

// awaitRedelivery waits until the capture consumer has redelivered some
// message.
func awaitRedelivery(t *testing.T, d *desk) {
	t.Helper()
	js, err := jetstream.New(mustConnect(t, d.env))
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		cons, err := js.Consumer(context.Background(), crjs.StreamName, capture.ConsumerName)
		if err != nil {
			t.Fatal(err)
		}
		info, err := cons.Info(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if info.NumRedelivered > 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("nothing was redelivered: %+v", info)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestWorkerRetryGoesBack: with a single slot, a source whose connection
// drops is not retried in that slot: it goes back to the stream, a page
// cited after it is captured first, and its failure is recorded once after
// Attempts fetches.
func TestWorkerRetryGoesBack(t *testing.T) {
	t.Parallel()
	d := newDesk(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	var accepted atomic.Int64
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			c.Close()
		}
	}()
	normal := serve(t, page("<p>"+quote+"</p>"))
	d.worker(capture.WorkerConfig{Workers: 1, Attempts: 2, Backoff: 3 * time.Second})
	dead := d.cite("http://" + l.Addr().String() + "/")
	later := d.cite("http://localhost:" + port(normal) + "/")
	d.await(dead, later)

	evs, err := d.env.Store.Load(context.Background(), domain.ProposalID("p1"), 0)
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, e := range evs {
		switch x := e.Data.(type) {
		case *events.EvidenceCaptured:
			order = append(order, x.EvidenceID)
		case *events.EvidenceCaptureFailed:
			order = append(order, x.EvidenceID)
			if x.Reason != domain.CaptureUnreachable {
				t.Errorf("reason %q, want %q", x.Reason, domain.CaptureUnreachable)
			}
		}
	}
	if len(order) != 2 || order[0] != later || order[1] != dead {
		t.Errorf("results in the order %v, want [%s %s]: the retry held the only slot", order, later, dead)
	}
	if n := accepted.Load(); n != 2 {
		t.Errorf("%d connections to the dead source, want 2 (Attempts)", n)
	}
}
