package capture_test

import (
	"context"
	"fmt"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/crossrank/crossrank/cmd/crossrank/capture"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/events"
	crjs "github.com/crossrank/crossrank/events/jetstream"
	"github.com/nats-io/nats.go/jetstream"
)

func TestBackoff(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		n    int
		want time.Duration
	}{
		{1, 10 * time.Second}, {2, 20 * time.Second}, {3, 40 * time.Second}, {4, 80 * time.Second},
		{10, 5120 * time.Second}, {11, 2 * time.Hour}, {12, 2 * time.Hour}, {200, 2 * time.Hour},
	} {
		if got := capture.Backoff(capture.DefaultBackoff, capture.DefaultMaxBackoff, c.n); got != c.want {
			t.Errorf("Backoff after attempt %d = %v, want %v", c.n, got, c.want)
		}
	}
}

// deadSource listens on the loopback and drops every connection it
// accepts, noting when.
func deadSource(t *testing.T) (url string, accepts func() []time.Time) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	var mu sync.Mutex
	var at []time.Time
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			at = append(at, time.Now())
			mu.Unlock()
			c.Close()
		}
	}()
	return "http://" + l.Addr().String() + "/", func() []time.Time {
		mu.Lock()
		defer mu.Unlock()
		return append([]time.Time(nil), at...)
	}
}

// TestWorkerBacksOffThenGivesUp: a source that keeps failing is fetched
// Attempts times, each retry no sooner than its backoff, and then its
// failure is recorded once with its reason and the attempts made; the
// fired retries do not stay in the schedule stream.
func TestWorkerBacksOffThenGivesUp(t *testing.T) {
	t.Parallel()
	d := newDesk(t)
	url, accepts := deadSource(t)
	d.worker(capture.WorkerConfig{Attempts: 3, Backoff: time.Second, MaxBackoff: time.Second})
	id := d.cite(url)
	got := d.await(id)
	f, ok := got[id][0].(*events.EvidenceCaptureFailed)
	if !ok || len(got[id]) != 1 || f.Reason != domain.CaptureUnreachable {
		t.Fatalf("results %v, want one failure for unreachable", got[id])
	}
	if f.Attempts != 3 {
		t.Errorf("the failure records %d attempts, want 3 (Attempts)", f.Attempts)
	}
	at := accepts()
	if len(at) != 3 {
		t.Fatalf("%d fetches, want 3 (Attempts)", len(at))
	}
	for i := 1; i < len(at); i++ {
		if gap := at[i].Sub(at[i-1]); gap < time.Second {
			t.Errorf("attempt %d came %v after the one before, want at least the backoff, 1s", i+1, gap)
		}
	}
	js, err := jetstream.New(mustConnect(t, d.env))
	if err != nil {
		t.Fatal(err)
	}
	st, err := js.Stream(context.Background(), crjs.ScheduleStreamName)
	if err != nil {
		t.Fatal(err)
	}
	info, err := st.Info(context.Background(), jetstream.WithSubjectFilter(crjs.FiredFilter(capture.RetryKind, 2)))
	if err != nil {
		t.Fatal(err)
	}
	if len(info.State.Subjects) != 0 {
		t.Errorf("fired retries left in the schedule stream: %v", info.State.Subjects)
	}
	// Given up, the source no longer counts as failing now: the desk
	// counts it among the failed ones, from its event.
	if n := retrying(t, d); n != 0 {
		t.Errorf("RetryCount after the worker gave up: %d, want 0", n)
	}
}

// retrying asks a fresh RetryCount of d's JetStream.
func retrying(t *testing.T, d *desk) int {
	t.Helper()
	c, err := capture.NewRetryCount(mustConnect(t, d.env), time.Nanosecond)
	if err != nil {
		t.Fatal(err)
	}
	n, err := c.Retrying(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestWorkerRetriesDoNotStarveNewSources: with more failing sources
// waiting for their retry than the capture consumer holds in flight (64),
// a source cited after them is still captured at once. When a failed item
// waited in the consumer (a delayed nak), the waiting items filled its
// window and the new source waited for the first retry's backoff.
func TestWorkerRetriesDoNotStarveNewSources(t *testing.T) {
	t.Parallel()
	d := newDesk(t)
	url, accepts := deadSource(t)
	normal := serve(t, page("<p>"+quote+"</p>"))
	d.worker(capture.WorkerConfig{Attempts: 5, Backoff: time.Minute, PerHost: 100})
	var dead []string
	for i := range 80 {
		dead = append(dead, d.cite(fmt.Sprintf("%s%d", url, i)))
	}
	start := time.Now()
	later := d.cite("http://localhost:" + port(normal) + "/")
	deadline := start.Add(15 * time.Second)
	for len(d.results()[later]) == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("the new source was not captured within 15s; %d fetches of the failing ones", len(accepts()))
		}
		time.Sleep(50 * time.Millisecond)
	}
	got := d.results()
	for _, id := range dead {
		if len(got[id]) != 0 {
			t.Errorf("%s: recorded %v before its retries", id, got[id])
		}
	}
	// Each failing source waits for its retry, a minute away: the desk's
	// "failing now" counts all 80, and the source that was captured not.
	deadline = time.Now().Add(15 * time.Second)
	for n := retrying(t, d); n != len(dead); n = retrying(t, d) {
		if time.Now().After(deadline) {
			t.Fatalf("RetryCount %d, want %d failing sources waiting for a retry", n, len(dead))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestRetryCountHoldsFiredRetries: a retry that has fired but that no
// worker has handled yet (every worker stopped, or the source's host busy)
// still counts as failing, as does one waiting for its moment.
func TestRetryCountHoldsFiredRetries(t *testing.T) {
	t.Parallel()
	d := newDesk(t)
	url, _ := deadSource(t)
	_, stop := d.worker(capture.WorkerConfig{Attempts: 5, Backoff: time.Second, MaxBackoff: time.Second})
	d.cite(url)
	deadline := time.Now().Add(15 * time.Second)
	for retrying(t, d) != 1 {
		if time.Now().After(deadline) {
			t.Fatal("the failing source never counted")
		}
		time.Sleep(20 * time.Millisecond)
	}
	stop()
	time.Sleep(2500 * time.Millisecond) // past the retry's moment: it fires, unhandled
	if n := retrying(t, d); n != 1 {
		t.Errorf("RetryCount with the retry fired and unhandled: %d, want 1", n)
	}
}
