package capture_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/crossrank/crossrank/cmd/crossrank/capture"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events"
	crjs "github.com/crossrank/crossrank/events/jetstream"
	"github.com/crossrank/crossrank/events/jetstream/jstest"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

const quote = "RTX 4090 每小时 1.98 元"

var editor = domain.Actor{Name: "ed", Roles: []string{domain.RoleEditor}}

// desk is an embedded store with a ranking and one draft proposal, p1,
// whose evidence the tests add.
type desk struct {
	t   *testing.T
	env *jstest.Env
	h   *handler.Handler
	n   int
}

func newDesk(t *testing.T) *desk {
	t.Helper()
	d := &desk{t: t, env: jstest.Start(t)}
	d.h = handler.New(d.env.Store, nil)
	ctx := context.Background()
	jstest.DefineRanking(t, d.env.Store, events.RankingDefined{
		Slug: "gpu", Title: events.Text{En: "GPU clouds"},
		Categories: []events.Category{{Slug: "cloud", Name: events.Text{En: "Cloud"}}},
		Criteria:   []events.Criterion{{Slug: "price", Name: events.Text{En: "Price"}, Weight: 100}},
		Quorum:     domain.DefaultQuorum,
	}, nil)
	must(t)(d.h.OpenProposal(ctx, editor, domain.OpenProposal{ID: "p1", Ranking: "gpu", Entry: "acme", Title: "Add Acme",
		NewEntry: &domain.NewEntry{Name: events.Text{En: "Acme"}, Category: "cloud"}}))
	return d
}

func must(t *testing.T) func(handler.Result, error) {
	return func(_ handler.Result, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
}

// cite adds an evidence item citing url with the quote, and returns its id.
func (d *desk) cite(url string) string {
	d.t.Helper()
	d.n++
	c := domain.AddEvidence{Proposal: "p1", Claim: events.Text{En: "price"}, SourceURL: url, Excerpt: quote, ObservedOn: "2026-03-01"}
	if url == "" {
		c.SourceName = "a brochure"
	}
	must(d.t)(d.h.AddEvidence(context.Background(), editor, c))
	return fmt.Sprintf("e%d", d.n)
}

// results returns the capture events stored for the proposal, by evidence id.
func (d *desk) results() map[string][]any {
	d.t.Helper()
	evs, err := d.env.Store.Load(context.Background(), domain.ProposalID("p1"), 0)
	if err != nil {
		d.t.Fatal(err)
	}
	out := map[string][]any{}
	for _, e := range evs {
		switch x := e.Data.(type) {
		case *events.EvidenceCaptured:
			out[x.EvidenceID] = append(out[x.EvidenceID], x)
		case *events.EvidenceCaptureFailed:
			out[x.EvidenceID] = append(out[x.EvidenceID], x)
		}
	}
	return out
}

// await waits until every id has a capture result.
func (d *desk) await(ids ...string) map[string][]any {
	d.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		got := d.results()
		done := true
		for _, id := range ids {
			done = done && len(got[id]) > 0
		}
		if done {
			return got
		}
		if time.Now().After(deadline) {
			d.t.Fatalf("no capture result for all of %v after 30s: %v", ids, got)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// worker starts a capture worker with its own connection and command
// handler, as a replica would have; stop ends it and waits.
func (d *desk) worker(cfg capture.WorkerConfig) (archive *capture.Archive, stop func()) {
	d.t.Helper()
	nc, err := d.env.Server.Connect("capture-worker")
	if err != nil {
		d.t.Fatal(err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		d.t.Fatal(err)
	}
	cfg.Archive, err = capture.OpenArchive(context.Background(), js, 1)
	if err != nil {
		d.t.Fatal(err)
	}
	cfg.Recorder = handler.New(d.env.Store, nil)
	if cfg.Fetcher == nil {
		cfg.Fetcher = &capture.Fetcher{Allow: loopback, Timeout: 5 * time.Second}
	}
	w, err := capture.NewWorker(nc, cfg)
	if err != nil {
		d.t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { _ = w.Run(ctx) })
	var once sync.Once
	stop = func() { once.Do(func() { cancel(); wg.Wait(); nc.Close() }) }
	d.t.Cleanup(stop)
	return cfg.Archive, stop
}

func hexSum(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// TestWorkerCaptures: a cited page is fetched, archived under the hash of
// its body, and the hash recorded on the proposal with the quote check; a
// page without the quote says so; a named document is left alone.
func TestWorkerCaptures(t *testing.T) {
	t.Parallel()
	d := newDesk(t)
	withQuote := "<html><body><p>价格：" + quote + "（按量计费）</p></body></html>"
	s1 := serve(t, page(withQuote))
	s2 := serve(t, page("<p>价格面议</p>"))
	archive, _ := d.worker(capture.WorkerConfig{})
	found, missing, named := d.cite(s1.URL+"/pricing"), d.cite(s2.URL), d.cite("")
	got := d.await(found, missing)

	c, ok := got[found][0].(*events.EvidenceCaptured)
	if !ok || len(got[found]) != 1 {
		t.Fatalf("%s: results %v, want one capture", found, got[found])
	}
	if c.SHA256 != hexSum(withQuote) || !c.QuoteFound || !c.QuoteChecked || c.Status != 200 ||
		c.URL != s1.URL+"/pricing" || c.FinalURL != s1.URL+"/pricing" || c.Size != int64(len(withQuote)) ||
		c.ContentType != "text/html; charset=utf-8" {
		t.Errorf("capture of the page with the quote: %+v", c)
	}
	rec, err := archive.Get(context.Background(), c.SHA256)
	if err != nil {
		t.Fatalf("archive: %v", err)
	}
	if string(rec.Body) != withQuote || rec.TargetURI != c.FinalURL {
		t.Errorf("archived record: target %s, body %q", rec.TargetURI, rec.Body)
	}
	if c, ok := got[missing][0].(*events.EvidenceCaptured); !ok || c.QuoteFound || !c.QuoteChecked {
		t.Errorf("capture of the page without the quote: %+v", got[missing][0])
	}

	p, err := d.h.Proposal(context.Background(), "p1")
	if err != nil {
		t.Fatal(err)
	}
	if e, _ := p.EvidenceByID(named); e.Capture() != domain.CaptureNone || len(got[named]) != 0 {
		t.Errorf("a named document got a capture: %v", got[named])
	}
	if nf := p.QuoteNotFound(); len(nf) != 1 || nf[0] != missing {
		t.Errorf("QuoteNotFound = %v, want [%s]", nf, missing)
	}
}

// TestWorkerRefusesLoopback: without --capture-allow, a URL on the
// server's own loopback is refused at dial time and recorded as such, once,
// after one attempt: a refusal is not retried.
func TestWorkerRefusesLoopback(t *testing.T) {
	t.Parallel()
	d := newDesk(t)
	s := serve(t, page("<p>"+quote+"</p>"))
	d.worker(capture.WorkerConfig{Fetcher: &capture.Fetcher{Timeout: 5 * time.Second}})
	id := d.cite(s.URL + "/admin")
	got := d.await(id)
	f, ok := got[id][0].(*events.EvidenceCaptureFailed)
	if !ok || len(got[id]) != 1 || f.Reason != domain.CaptureForbiddenAddress || f.URL != s.URL+"/admin" {
		t.Fatalf("results %v, want one failure for forbidden_address", got[id])
	}
	if f.Attempts != 1 {
		t.Errorf("the failure records %d attempts, want 1", f.Attempts)
	}
	if n := s.hits.Load(); n != 0 {
		t.Errorf("the loopback server got %d requests", n)
	}
}

// TestWorkerRestartAfterFetch: a worker stopped after fetching and before
// recording leaves the item to the next one, which records it once.
func TestWorkerRestartAfterFetch(t *testing.T) {
	t.Parallel()
	d := newDesk(t)
	s := serve(t, page("<p>"+quote+"</p>"))
	fetched := make(chan struct{}, 1)
	var cfg capture.WorkerConfig
	capture.SetHooks(&cfg, func(ctx context.Context) {
		fetched <- struct{}{}
		<-ctx.Done()
	}, nil)
	_, stopFirst := d.worker(cfg)
	id := d.cite(s.URL)
	select {
	case <-fetched:
	case <-time.After(30 * time.Second):
		t.Fatal("the first worker never fetched")
	}
	stopFirst()
	if got := d.results(); len(got[id]) != 0 {
		t.Fatalf("the stopped worker recorded %v", got[id])
	}
	d.worker(capture.WorkerConfig{})
	d.await(id)
	time.Sleep(500 * time.Millisecond) // room for a second record, if there were one
	if got := d.results(); len(got[id]) != 1 {
		t.Fatalf("results %v, want exactly one", got[id])
	}
	if n := s.hits.Load(); n != 2 {
		t.Errorf("%d fetches, want 2 (one by each worker)", n)
	}
}

// TestWorkerCrashAfterRecord: a worker that dies after recording and
// before acknowledging leaves the message to be redelivered; the next
// worker finds the record, fetches nothing and acknowledges.
func TestWorkerCrashAfterRecord(t *testing.T) {
	t.Parallel()
	d := newDesk(t)
	s := serve(t, page("<p>"+quote+"</p>"))
	recorded := make(chan struct{}, 1)
	cfg := capture.WorkerConfig{AckWait: time.Second}
	capture.SetHooks(&cfg, nil, func(ctx context.Context) {
		recorded <- struct{}{}
		<-ctx.Done()
	})
	_, stopFirst := d.worker(cfg)
	id := d.cite(s.URL)
	select {
	case <-recorded:
	case <-time.After(30 * time.Second):
		t.Fatal("the first worker never recorded")
	}
	stopFirst()
	d.worker(capture.WorkerConfig{AckWait: time.Second})
	// The redelivered message is acknowledged without a second fetch.
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
		if info.NumAckPending == 0 && info.NumPending == 0 && info.NumRedelivered == 0 && info.AckFloor.Stream >= info.Delivered.Stream {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the message was never acknowledged: %+v", info)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if got := d.results(); len(got[id]) != 1 {
		t.Fatalf("results %v, want exactly one", got[id])
	}
	if n := s.hits.Load(); n != 1 {
		t.Errorf("%d fetches, want 1", n)
	}
}

// TestWorkerReplicas: two workers on one stream, as two replicas run
// them, record each item exactly once.
func TestWorkerReplicas(t *testing.T) {
	t.Parallel()
	d := newDesk(t)
	s := serve(t, page("<p>"+quote+"</p>"))
	d.worker(capture.WorkerConfig{})
	d.worker(capture.WorkerConfig{})
	var ids []string
	for i := range 6 {
		ids = append(ids, d.cite(fmt.Sprintf("%s/page/%d", s.URL, i)))
	}
	d.await(ids...)
	time.Sleep(500 * time.Millisecond)
	got := d.results()
	for _, id := range ids {
		if len(got[id]) != 1 {
			t.Errorf("%s: %d results, want 1", id, len(got[id]))
		}
	}
}

func TestReason(t *testing.T) {
	t.Parallel()
	for _, r := range domain.CaptureReasons {
		if r == domain.CaptureUnreachable {
			continue
		}
		// Each reason but the catch-all is some sentinel's.
		found := false
		for _, err := range []error{capture.ErrScheme, capture.ErrForbiddenAddress, capture.ErrTooManyRedirects, capture.ErrTimeout,
			capture.ErrTooLarge, capture.ErrContentType, capture.ErrEncoding, capture.ErrStatus} {
			found = found || capture.Reason(fmt.Errorf("fetch: %w", err)) == r
		}
		if !found {
			t.Errorf("no fetch error maps to %q", r)
		}
	}
	if got := capture.Reason(capture.ErrUnreachable); got != domain.CaptureUnreachable {
		t.Errorf("Reason(ErrUnreachable) = %q", got)
	}
}

func TestCommandID(t *testing.T) {
	t.Parallel()
	a, b := capture.CommandID("p1", "e1"), capture.CommandID("p1", "e2")
	if a == b || a != capture.CommandID("p1", "e1") || len(a) != 36 || a[14] != '8' {
		t.Errorf("CommandID: %s, %s", a, b)
	}
}

func mustConnect(t *testing.T, env *jstest.Env) *nats.Conn {
	t.Helper()
	nc, err := env.Server.Connect("capture-test")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return nc
}
