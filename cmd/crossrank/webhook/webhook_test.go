package webhook_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/crossrank/crossrank/cmd/crossrank/webhook"
	"github.com/crossrank/crossrank/domain"
	"github.com/crossrank/crossrank/domain/demo"
	"github.com/crossrank/crossrank/domain/handler"
	"github.com/crossrank/crossrank/events"
	"github.com/crossrank/crossrank/events/jetstream/jstest"
	"github.com/crossrank/crossrank/projections"
	"github.com/nats-io/nats.go"
)

const secret = "s3cret"

func TestSignature(t *testing.T) {
	t.Parallel()
	body := []byte(`{"id":"gpu-cloud/2"}`)
	sig := webhook.Sign(secret, body)
	// HMAC-SHA256 under "s3cret", computed independently:
	//   echo -n '{"id":"gpu-cloud/2"}' | openssl dgst -sha256 -hmac s3cret
	if want := "sha256=6b4de1352a3c84667f0a4d0d00b6bc10b7bb9d16f54c0f7fb5377c20c0f27d0a"; sig != want {
		t.Fatalf("Sign = %s, want %s", sig, want)
	}
	if !webhook.Verify(secret, body, sig) {
		t.Error("the right secret does not verify")
	}
	for name, ok := range map[string]bool{
		"wrong secret":   webhook.Verify("other", body, sig),
		"changed body":   webhook.Verify(secret, []byte(`{"id":"gpu-cloud/3"}`), sig),
		"no prefix":      webhook.Verify(secret, body, sig[len("sha256="):]),
		"not hex":        webhook.Verify(secret, body, "sha256=zz"),
		"empty header":   webhook.Verify(secret, body, ""),
		"truncated hmac": webhook.Verify(secret, body, sig[:len(sig)-2]),
	} {
		if ok {
			t.Errorf("%s verifies", name)
		}
	}
}

// receiver is the other end: it checks each signature, fails the first
// failFirst requests (or all with failAll), and counts what it accepted.
type receiver struct {
	mu        sync.Mutex
	failFirst int
	failAll   bool
	requests  int
	badSigs   int
	accepted  map[string]int // delivery id → times accepted
	bodies    map[string]webhook.Payload
	got       chan struct{}
}

func newReceiver(failFirst int) *receiver {
	return &receiver{failFirst: failFirst, accepted: map[string]int{}, bodies: map[string]webhook.Payload{}, got: make(chan struct{}, 100)}
}

func (rc *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	rc.mu.Lock()
	defer func() { rc.mu.Unlock(); rc.got <- struct{}{} }()
	rc.requests++
	// A plain secret signs both ways for one release: the old header, and
	// the Standard Webhooks one with the secret's bytes as the key.
	_, stdErr := verifyStandard("whsec_"+base64.StdEncoding.EncodeToString([]byte(secret)), r.Header, body, time.Now())
	if !webhook.Verify(secret, body, r.Header.Get(webhook.SignatureHeader)) || stdErr != nil {
		rc.badSigs++
		http.Error(w, "bad signature", http.StatusUnauthorized)
		return
	}
	if rc.failAll || rc.requests <= rc.failFirst {
		http.Error(w, "try later", http.StatusServiceUnavailable)
		return
	}
	var p webhook.Payload
	_ = json.Unmarshal(body, &p)
	id := r.Header.Get(webhook.DeliveryHeader)
	if p.ID != id {
		http.Error(w, "id mismatch", http.StatusBadRequest)
		return
	}
	rc.accepted[id]++
	rc.bodies[id] = p
	w.WriteHeader(http.StatusNoContent)
}

func (rc *receiver) snapshot() (requests int, accepted map[string]int, badSigs int) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	out := map[string]int{}
	for k, v := range rc.accepted {
		out[k] = v
	}
	return rc.requests, out, rc.badSigs
}

// waitFor polls cond until it holds or d passes.
func waitFor(t *testing.T, what string, d time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

type world struct {
	t   *testing.T
	ctx context.Context
	env *jstest.Env
	cmd *handler.Handler
}

func newWorld(t *testing.T) *world {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	env := jstest.Start(t)
	w := &world{t: t, ctx: ctx, env: env, cmd: handler.New(env.Store, nil)}
	hash := func(string) (string, error) { return "$argon2id$v=19$m=8,t=1,p=1$c2FsdA$aGFzaA", nil }
	if _, err := demo.Seed(ctx, w.cmd, demo.Options{Password: "pw", HashPassword: hash, Now: time.Now()}); err != nil {
		t.Fatal(err)
	}
	return w
}

func (w *world) publish(proposal string) {
	w.t.Helper()
	pv, _, err := w.cmd.PreviewEdition(w.ctx, demo.RankingSlug, []string{proposal})
	if err != nil {
		w.t.Fatal(err)
	}
	publisher := domain.Actor{Name: "publisher", Roles: []string{domain.RolePublisher}}
	if _, err := w.cmd.Publish(w.ctx, publisher, domain.PublishEdition{CommandID: events.NewID(time.Now()), Ranking: demo.RankingSlug,
		Proposals: []string{proposal}, PreviewHash: pv.Hash}); err != nil {
		w.t.Fatal(err)
	}
}

// sender starts a sender on its own connection (a process of its own);
// stop cancels it and waits for it; kill closes its connection without a
// word, as a crash would.
func (w *world) sender(url string, cfg webhook.Config) (stop func(), kill func()) {
	w.t.Helper()
	nc, err := w.env.Server.Connect("webhook-test")
	if err != nil {
		w.t.Fatal(err)
	}
	cfg.URL = url
	if cfg.Secret == "" {
		cfg.Secret = secret
	}
	if cfg.Backoff == 0 {
		cfg.Backoff = 100 * time.Millisecond
	}
	s, err := webhook.New(nc, w.env.Store, cfg)
	if err != nil {
		w.t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(w.ctx)
	done := make(chan struct{})
	go func() { defer close(done); _ = s.Run(ctx) }()
	var once sync.Once
	stop = func() { once.Do(func() { cancel(); <-done; nc.Close() }) }
	kill = func() { once.Do(func() { nc.Close(); cancel(); <-done }) }
	w.t.Cleanup(stop)
	return stop, kill
}

// records returns the delivery events stored for the webhook at url.
func (w *world) records(url string) (delivered, failed []string) {
	w.t.Helper()
	err := w.env.Store.Replay(w.ctx, 1, func(e events.Event) error {
		switch d := e.Data.(type) {
		case *events.WebhookDelivered:
			if d.URL == webhook.Redact(url) {
				delivered = append(delivered, d.Ranking+"/"+strconv.Itoa(d.Edition))
			}
		case *events.WebhookFailed:
			if d.URL == webhook.Redact(url) {
				failed = append(failed, d.Ranking+"/"+strconv.Itoa(d.Edition))
			}
		}
		return nil
	})
	if err != nil {
		w.t.Fatal(err)
	}
	return delivered, failed
}

// TestExactlyOnceAcrossRestarts stops the sender while it waits between
// retries, publishes while none runs, starts it again, then crashes one
// mid-retry: the receiver accepts each edition exactly once, and the
// store records each delivery once.
func TestExactlyOnceAcrossRestarts(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	rc := newReceiver(3) // the first three posts fail
	ts := httptest.NewServer(rc)
	defer ts.Close()
	url := ts.URL + "/hook?token=abc"

	stop, _ := w.sender(url, webhook.Config{Backoff: 300 * time.Millisecond})
	waitFor(t, "two failed attempts", 10*time.Second, func() bool { n, _, _ := rc.snapshot(); return n >= 2 })
	stop() // mid-retry: between attempt 2 and 3 of edition 1
	if _, acc, _ := rc.snapshot(); len(acc) != 0 {
		t.Fatalf("accepted before any success: %v", acc)
	}

	w.publish("demo-qingjiao-2") // edition 2 while no sender runs
	stop, _ = w.sender(url, webhook.Config{})
	waitFor(t, "both editions accepted", 20*time.Second, func() bool { _, acc, _ := rc.snapshot(); return len(acc) == 2 })
	stop()

	// A third start finds both recorded and posts nothing.
	before, _, _ := rc.snapshot()
	stop, _ = w.sender(url, webhook.Config{})
	time.Sleep(800 * time.Millisecond)
	stop()
	requests, acc, bad := rc.snapshot()
	if requests != before {
		t.Errorf("a restarted sender posted again: %d → %d requests", before, requests)
	}
	if acc["gpu-cloud/1"] != 1 || acc["gpu-cloud/2"] != 1 || bad != 0 {
		t.Errorf("accepted %v (bad signatures %d), want each edition exactly once", acc, bad)
	}
	delivered, failed := w.records(url)
	if len(delivered) != 2 || delivered[0] != "gpu-cloud/1" || delivered[1] != "gpu-cloud/2" || len(failed) != 0 {
		t.Errorf("records: delivered %v, failed %v", delivered, failed)
	}
	// The records reach the audit trail through the projection.
	ps, err := projections.Open(filepath.Join(t.TempDir(), "read.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer ps.Close()
	pctx, pstop := context.WithCancel(w.ctx)
	pdone := make(chan struct{})
	go func() { defer close(pdone); _ = ps.Run(pctx, w.env.Store, nil) }()
	defer func() { pstop(); <-pdone }()
	last, _ := w.env.Store.LastSequence(w.ctx)
	if err := ps.WaitFor(w.ctx, last); err != nil {
		t.Fatal(err)
	}
	var rows, audited int
	ps.DB().QueryRow(`SELECT count(*) FROM webhook_deliveries WHERE ok=1 AND url=?`, webhook.Redact(url)).Scan(&rows)
	ps.DB().QueryRow(`SELECT count(*) FROM audit WHERE type=?`, events.TypeWebhookDelivered).Scan(&audited)
	if rows != 2 || audited != 2 {
		t.Errorf("projected deliveries %d, audit rows %d; want 2 and 2", rows, audited)
	}

	p := rc.bodies["gpu-cloud/2"]
	if p.Ranking != "gpu-cloud" || p.Edition != 2 || p.Type != "edition-published" || p.Changes != 1 || p.SnapshotHash == "" || p.Publisher != "publisher" {
		t.Errorf("payload %+v", p)
	}

	// A sender that crashes mid-retry (its connection gone, no goodbye):
	// the server redelivers after the ack wait, and the next sender
	// delivers once. A second URL has a consumer and record of its own.
	rc2 := newReceiver(1)
	ts2 := httptest.NewServer(rc2)
	defer ts2.Close()
	_, kill := w.sender(ts2.URL, webhook.Config{Backoff: 2 * time.Second, AckWait: time.Second})
	waitFor(t, "a failed attempt", 10*time.Second, func() bool { n, _, _ := rc2.snapshot(); return n >= 1 })
	kill()
	w.sender(ts2.URL, webhook.Config{AckWait: time.Second})
	waitFor(t, "both editions at the second URL", 20*time.Second, func() bool { _, acc, _ := rc2.snapshot(); return len(acc) == 2 })
	time.Sleep(300 * time.Millisecond)
	if _, acc, _ := rc2.snapshot(); acc["gpu-cloud/1"] != 1 || acc["gpu-cloud/2"] != 1 {
		t.Errorf("second URL accepted %v", acc)
	}
}

// TestFinalFailureIsRecorded gives up after the attempts run out, records
// the failure, acknowledges, and never retries it after a restart.
func TestFinalFailureIsRecorded(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	rc := newReceiver(0)
	rc.failAll = true
	ts := httptest.NewServer(rc)
	defer ts.Close()
	stop, _ := w.sender(ts.URL, webhook.Config{MaxAttempts: 3, Backoff: 20 * time.Millisecond})
	waitFor(t, "the failure recorded", 10*time.Second, func() bool { _, failed := w.records(ts.URL); return len(failed) == 1 })
	stop()
	n, _, _ := rc.snapshot()
	if n != 3 {
		t.Errorf("%d attempts, want 3", n)
	}
	stop, _ = w.sender(ts.URL, webhook.Config{MaxAttempts: 3, Backoff: 20 * time.Millisecond})
	time.Sleep(500 * time.Millisecond)
	stop()
	if again, _, _ := rc.snapshot(); again != n {
		t.Errorf("a recorded failure was retried after a restart: %d → %d", n, again)
	}
}

func TestRedact(t *testing.T) {
	t.Parallel()
	if got := webhook.Redact("https://u:p@hooks.example.org/x?token=abc#f"); got != "https://hooks.example.org/x" {
		t.Errorf("Redact = %q", got)
	}
	if _, err := webhook.New(&nats.Conn{}, nil, webhook.Config{URL: "javascript:alert(1)"}); err == nil {
		t.Error("a non-http URL is accepted")
	}
}
