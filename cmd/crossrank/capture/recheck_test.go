package capture_test

import (
	"context"
	"io"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/crossrank/crossrank/cmd/crossrank/capture"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events"
	crjs "github.com/crossrank/crossrank/events/jetstream"
	"github.com/crossrank/crossrank/events/jetstream/jstest"
	"github.com/crossrank/crossrank/projections"
	"github.com/nats-io/nats.go/jetstream"
)

// answer is what a changing page says: a status and an HTML body.
type answer struct {
	mu     sync.Mutex
	status int
	body   string
}

func (a *answer) set(status int, body string) {
	a.mu.Lock()
	a.status, a.body = status, body
	a.mu.Unlock()
}

func (a *answer) serve(w http.ResponseWriter, _ *http.Request) {
	a.mu.Lock()
	status, body := a.status, a.body
	a.mu.Unlock()
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	io.WriteString(w, body)
}

// changing serves body until told otherwise.
func changing(t *testing.T, body string) (*answer, *server) {
	a := &answer{status: 200, body: body}
	return a, serve(t, a.serve)
}

// ids lists the given evidence items of p1 as the published captures.
type ids []string

func (l ids) PublishedCaptures(context.Context) ([]projections.SourceRef, error) {
	var out []projections.SourceRef
	for _, id := range l {
		out = append(out, projections.SourceRef{Proposal: "p1", Evidence: id})
	}
	return out, nil
}

// rechecker starts a re-check of the items every interval, with its own
// connection and command handler, as a replica would have.
func (d *desk) rechecker(every time.Duration, items ...string) (stop func()) {
	d.t.Helper()
	nc, err := d.env.Server.Connect("recheck")
	if err != nil {
		d.t.Fatal(err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		d.t.Fatal(err)
	}
	archive, err := capture.OpenArchive(context.Background(), js, 1)
	if err != nil {
		d.t.Fatal(err)
	}
	r, err := capture.NewRechecker(nc, capture.RecheckConfig{Recorder: handler.New(d.env.Store, nil), Sources: ids(items),
		Archive: archive, Fetcher: &capture.Fetcher{Allow: loopback, Timeout: 2 * time.Second}, Every: every,
		Attempts: 2, Backoff: 10 * time.Millisecond, AckWait: 5 * time.Second})
	if err != nil {
		d.t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { _ = r.Run(ctx) })
	var once sync.Once
	stop = func() { once.Do(func() { cancel(); wg.Wait(); nc.Close() }) }
	d.t.Cleanup(stop)
	return stop
}

// drift returns the re-check events stored for p1, by evidence id.
func (d *desk) drift() map[string][]any {
	d.t.Helper()
	evs, err := d.env.Store.Load(context.Background(), domain.ProposalID("p1"), 0)
	if err != nil {
		d.t.Fatal(err)
	}
	out := map[string][]any{}
	for _, e := range evs {
		switch x := e.Data.(type) {
		case *events.EvidenceSourceChanged:
			out[x.EvidenceID] = append(out[x.EvidenceID], x)
		case *events.EvidenceSourceDead:
			out[x.EvidenceID] = append(out[x.EvidenceID], x)
		}
	}
	return out
}

// awaitDrift waits until the item has n re-check results.
func (d *desk) awaitDrift(id string, n int) []any {
	d.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		if got := d.drift()[id]; len(got) >= n {
			return got
		}
		if time.Now().After(deadline) {
			d.t.Fatalf("%s: fewer than %d re-check results after 20s: %v", id, n, d.drift())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

const withQuote = "<html><body><h1>价格</h1><p>" + quote + "（按量计费）</p></body></html>"

// TestRecheckFindsDrift: on the schedule's ticks, a page whose text
// changed and lost the quote is recorded changed (the new version archived,
// quote not found); a page answering 404 is recorded dead; an unchanged
// page, and one whose scripts alone changed, record nothing; and the next
// ticks record nothing more for the first two.
func TestRecheckFindsDrift(t *testing.T) {
	t.Parallel()
	d := newDesk(t)
	lost, s1 := changing(t, withQuote)
	gone, s2 := changing(t, withQuote+"<!-- 2 -->")
	_, s3 := changing(t, withQuote+"<!-- 3 -->")
	scripted, s4 := changing(t, withQuote+"<!-- 4 -->")
	archive, _ := d.worker(capture.WorkerConfig{})
	e1, e2, e3, e4 := d.cite(s1.URL), d.cite(s2.URL), d.cite(s3.URL), d.cite(s4.URL)
	d.await(e1, e2, e3, e4)

	changed := "<html><body><h1>价格</h1><p>RTX 4090 每小时 2.50 元</p></body></html>"
	lost.set(200, changed)
	gone.set(http.StatusNotFound, "<p>no such page</p>")
	scripted.set(200, withQuote+"<!-- 4 --><script>var build = 2</script>")
	d.rechecker(time.Second, e1, e2, e3, e4)

	c, ok := d.awaitDrift(e1, 1)[0].(*events.EvidenceSourceChanged)
	if !ok || c.SHA256 != hexSum(changed) || c.QuoteFound || !c.QuoteChecked || c.Status != 200 || c.Tick == "" {
		t.Errorf("%s: %+v, want a change with the quote not found", e1, c)
	}
	if rec, err := archive.Get(context.Background(), c.SHA256); err != nil || string(rec.Body) != changed {
		t.Errorf("the new version is not archived: %v", err)
	}
	if x, ok := d.awaitDrift(e2, 1)[0].(*events.EvidenceSourceDead); !ok || x.Reason != domain.DeadNotFound || x.Status != 404 {
		t.Errorf("%s: %+v, want dead, not found", e2, x)
	}
	time.Sleep(2500 * time.Millisecond) // two more ticks
	got := d.drift()
	if len(got[e1]) != 1 || len(got[e2]) != 1 || len(got[e3]) != 0 || len(got[e4]) != 0 {
		t.Errorf("results after three ticks: %v; want one for %s and %s, none for %s and %s", got, e1, e2, e3, e4)
	}
	if s1.hits.Load() < 3 || s3.hits.Load() < 3 {
		t.Errorf("pages fetched %d and %d times; want the capture and a re-check per tick", s1.hits.Load(), s3.hits.Load())
	}
}

// TestRecheckOncePerTickAcrossReplicas: two replicas consume the ticks of
// one schedule; a page that changes at every fetch gets exactly one result
// per tick, and is fetched once per tick, not once per replica.
func TestRecheckOncePerTickAcrossReplicas(t *testing.T) {
	t.Parallel()
	d := newDesk(t)
	var mu sync.Mutex
	n := 0
	s := serve(t, func(w http.ResponseWriter, _ *http.Request) {
		mu.Lock()
		n++
		body := withQuote + "<p>visit " + time.Now().Format(time.RFC3339Nano) + "</p>"
		mu.Unlock()
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, body)
	})
	_, stopCapture := d.worker(capture.WorkerConfig{})
	e1 := d.cite(s.URL)
	d.await(e1)
	stopCapture()

	stopA := d.rechecker(time.Second, e1)
	stopB := d.rechecker(time.Second, e1)
	d.awaitDrift(e1, 3)
	stopA()
	stopB()
	got := d.drift()[e1]
	ticks := map[string]bool{}
	for _, x := range got {
		c := x.(*events.EvidenceSourceChanged)
		if ticks[c.Tick] {
			t.Errorf("two results for tick %s", c.Tick)
		}
		ticks[c.Tick] = true
	}
	// The capture's fetch, one per tick recorded, and perhaps one whose
	// replica was stopped before recording.
	if fetches := s.hits.Load(); fetches > int64(len(got))+2 {
		t.Errorf("%d fetches for %d ticks: a tick was fetched by both replicas", fetches, len(got))
	}
}

// TestRecheckScheduleSurvivesRestart: the schedule is a message in the
// stream; after the server restarts on the same directory the re-check
// fires again from that same message (it is not stored anew).
func TestRecheckScheduleSurvivesRestart(t *testing.T) {
	t.Parallel()
	d := newDesk(t)
	page, s := changing(t, withQuote)
	_, stopCapture := d.worker(capture.WorkerConfig{})
	e1 := d.cite(s.URL)
	d.await(e1)
	stopCapture()
	page.set(200, "<p>second version</p>")
	stop := d.rechecker(2*time.Second, e1)
	d.awaitDrift(e1, 1)
	stop()
	before := scheduleSeq(t, d.env)
	d.env.Server.Shutdown()

	page.set(200, "<p>third version</p>")
	d.env = jstest.StartIn(t, d.env.Dir)
	d.h = handler.New(d.env.Store, nil)
	d.rechecker(2*time.Second, e1)
	got := d.awaitDrift(e1, 2)
	if c := got[1].(*events.EvidenceSourceChanged); c.SHA256 != hexSum("<p>third version</p>") {
		t.Errorf("after the restart: %+v", c)
	}
	if after := scheduleSeq(t, d.env); after != before {
		t.Errorf("the schedule was stored again after the restart: sequence %d, then %d", before, after)
	}
}

// scheduleSeq returns the stream sequence of the re-check's schedule message.
func scheduleSeq(t *testing.T, env *jstest.Env) uint64 {
	t.Helper()
	nc, err := env.Server.Connect("schedule")
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	ctx := context.Background()
	st, err := js.Stream(ctx, crjs.ScheduleStreamName)
	if err != nil {
		t.Fatal(err)
	}
	m, err := st.GetLastMsgForSubject(ctx, crjs.ScheduleSubject(capture.RecheckSchedule))
	if err != nil {
		t.Fatal(err)
	}
	return m.Sequence
}
